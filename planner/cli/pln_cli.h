/* pln_cli.h — the hrpplan command line (DESIGN.md section 3).
 *
 * Parsing is separate from running, so that tests can check every usage rule without a
 * process: pln_cli_parse() fills a PlnCliArgs from argv and reports usage mistakes as
 * PLN_ERR_USAGE with a message; pln_cli_main() runs the whole command with its output
 * streams passed in and returns the process exit code (PLN_EXIT_*). */
#ifndef PLN_CLI_H
#define PLN_CLI_H

#include <stdio.h>

#include "base/pln_status.h"
#include "output/pln_export.h"
#include "problem/pln_scenario.h"

#define PLN_VERSION "0.1.0"

typedef enum PlnCommand {
    PLN_CMD_NONE = 0,   /* no subcommand given */
    PLN_CMD_HELP,       /* hrpplan --help */
    PLN_CMD_VERSION,    /* hrpplan --version */
    PLN_CMD_PLAN,
    PLN_CMD_CHECK,
    PLN_CMD_ROBOT,
    PLN_CMD_EXPORT,
    PLN_CMD_EXPORT_MJCF,
    PLN_CMD_SIMULATE,
    PLN_CMD_IMPACT,
    PLN_CMD_BATCH
} PlnCommand;

/* batch: at most this many scenarios on one command line, this many plans at once */
#define PLN_BATCH_MAX_FILES 4096
#define PLN_BATCH_MAX_JOBS 64

/* Parsed command line. String fields borrow from argv; unset ones are NULL. */
typedef struct PlnCliArgs {
    PlnCommand command;
    int help;                  /* --help given after a subcommand */
    const char *scenario;      /* plan, check: SCENARIO.yaml */
    const char *trajectory;    /* check, simulate: TRAJECTORY; export: TRAJECTORY.json */
    const char *robot;         /* robot, export-mjcf: ROBOT.yaml */
    const char *mechanism;     /* impact: MECHANISM.yaml (NULL: SCENARIO TRAJECTORY) */
    int impact_dense;          /* impact --solver dense (default block) */
    const char *pair;          /* impact --pair A,B (robot form) */
    double at;                 /* impact --at T, s (NAN: the first contact) */
    double restitution;        /* impact --restitution E in [0, 1] (default 0) */
    double friction;           /* impact --friction MU >= 0 (NAN: the scenario's mu) */
    const char *out_dir;       /* plan, simulate, impact, batch -o DIR; NULL means out/<name>/
                                  (batch: out/batch) */
    const char *output;        /* export, export-mjcf -o FILE (export-mjcf: NULL = stdout) */
    const char *dump_queries;  /* plan --dump-queries FILE */
    int no_collision;          /* plan --no-collision */
    int static_balance;        /* plan/check --static-balance */
    PlnMethod method;          /* plan --method */
    int method_given;          /* --method was given (else the scenario's method) */
    const char *geometry;      /* plan, check --geometry: capsule, convex, ellipsoid or mesh
                                  (checked by the parser); NULL: the scenario's */
    const char *distance;      /* plan --distance: euclidean or phong (checked by the
                                  parser); NULL: the scenario's */
    int threads;               /* plan --threads N (>= 1), or PLN_THREADS_AUTO (auto, the
                                  default) */
    double max_time;           /* plan --max-time S: the optimiser's budget, s (NAN: the
                                  scenario's optimizer.time_limit) */
    double timeout;            /* plan, check, simulate, batch --timeout S: the whole run's
                                  wall-clock limit, s (NAN: the default, base/pln_watchdog.h
                                  and PLN_TIMEOUT_DEFAULT_S) */
    int quiet;                 /* plan -q */
    int verbose;               /* plan -v: a progress line after every evaluation */
    int force;                 /* export --force */
    int fixed_base;            /* export-mjcf --fixed-base */
    int simulate;              /* plan --simulate */
    double speed;              /* simulate --speed K (> 0, default 1) */
    int no_feedforward;        /* simulate --no-feedforward */
    const char *mjcf;          /* simulate --mjcf FILE: also write the simulated model */
    int json;                  /* plan, check --json: the report as JSON on out */
    const char *files[PLN_BATCH_MAX_FILES]; /* batch: the scenarios, in command-line order */
    int n_files;
    int jobs;                  /* batch -j N: plans at once (1..PLN_BATCH_MAX_JOBS, default 1) */
    int jobs_given;
    const char *summarize;     /* batch --summarize DIR: rebuild DIR's summary, plan nothing */
    PlnExportFormat format;    /* export --format */
    double rate_hz;            /* export --rate HZ (> 0) */
    const char *export_robot;  /* export --robot FILE: the robot (else the trajectory's
                                  robot_file, then robot_file_relative) */
    int urdf;                  /* robot --urdf: write the model as URDF (-o FILE or stdout) */
    const char *package_path;  /* --package-path DIRS: where package:// meshes of a URDF
                                  robot are found, before $ROS_PACKAGE_PATH */
} PlnCliArgs;

/* Name of a command ("plan", ...); a static string. */
const char *pln_command_string(PlnCommand command);

/* Parses argv (argv[0] is the program name). Usage mistakes (unknown subcommand or
 * flag, missing or surplus argument, bad number) return PLN_ERR_USAGE with a message.
 * Files are not opened here. */
PlnStatus pln_cli_parse(int argc, char *const argv[], PlnCliArgs *args, char *err,
                        size_t err_size);

/* Writes the help text of a command (PLN_CMD_NONE/PLN_CMD_HELP: the overview). */
void pln_cli_print_help(PlnCommand command, FILE *out);

/* Runs hrpplan: parses, checks input files, dispatches. Help and results go to `out`,
 * diagnostics and progress to `errs`. Returns the process exit code (PLN_EXIT_*). */
int pln_cli_main(int argc, char *const argv[], FILE *out, FILE *errs);

#endif /* PLN_CLI_H */
