/* pln_cli.c — hrpplan argument parsing, help texts and subcommand dispatch. */
#include "cli/pln_cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dst.h"
#include "base/pln_atomic.h"
#include "base/pln_file.h"
#include "base/pln_tolerance.h"
#include "base/pln_watchdog.h"
#include "cli/pln_cmd.h"
#include "problem/pln_problem.h"

const char *pln_command_string(PlnCommand command)
{
    switch (command) {
    case PLN_CMD_NONE: return "";
    case PLN_CMD_HELP: return "help";
    case PLN_CMD_VERSION: return "version";
    case PLN_CMD_PLAN: return "plan";
    case PLN_CMD_CHECK: return "check";
    case PLN_CMD_ROBOT: return "robot";
    case PLN_CMD_EXPORT: return "export";
    case PLN_CMD_EXPORT_MJCF: return "export-mjcf";
    case PLN_CMD_SIMULATE: return "simulate";
    case PLN_CMD_IMPACT: return "impact";
    case PLN_CMD_BATCH: return "batch";
    }
    return "unknown";
}

/* ---- help texts ------------------------------------------------------------------- */

static const char HELP_OVERVIEW[] =
    "usage: hrpplan <command> [options]\n"
    "\n"
    "Plans whole-body motions of an HRP-2-class humanoid by trajectory optimisation and\n"
    "certifies them free of collision over continuous time.\n"
    "\n"
    "commands:\n"
    "  plan SCENARIO.yaml        plan a motion and write trajectory, report and plots\n"
    "  batch SCENARIO.yaml...    plan many scenarios (N at once), one folder each, and\n"
    "                            summarise them in summary.csv and summary.json\n"
    "  check SCENARIO.yaml TRAJ  re-certify a trajectory (.json, .pos or .csv)\n"
    "  robot ROBOT.yaml          print a robot model: joints, limits, links, geometry\n"
    "  export TRAJ.json          write a trajectory for a controller (pos, csv, json, ros)\n"
    "  export-mjcf ROBOT.yaml    write the robot as a MuJoCo model (MJCF)\n"
    "  simulate SCENARIO TRAJ    replay a trajectory in MuJoCo physics: does it stand?\n"
    "  impact MECHANISM.yaml     impulses and velocities after a collision of jointed bodies\n"
    "\n"
    "options:\n"
    "  -h, --help                this text; `hrpplan <command> --help` for a command\n"
    "  --version                 print the version and exit\n"
    "\n"
    "exit codes: 0 success (certified; simulate: stands), 1 internal error, 2 bad input\n"
    "            or usage, 3 the motion is not certified safe (simulate: it fell, slipped,\n"
    "            lost track or collided)\n";

static const char HELP_PLAN[] =
    "usage: hrpplan plan SCENARIO.yaml [-o DIR] [--no-collision] [--static-balance]\n"
    "                    [--method hybrid|gss|ca|sampling] [--geometry KIND]\n"
    "                    [--distance euclidean|phong] [--threads N|auto] [--max-time S]\n"
    "                    [--timeout S] [--simulate] [--json] [-q | -v]\n"
    "\n"
    "Optimises the B-spline joint trajectory of a scenario and certifies it. Writes into\n"
    "DIR (default out/<scenario name>/): trajectory.json, trajectory.csv, report.json,\n"
    "distance.svg, joints.svg, view.html, and only when certified trajectory.pos with\n"
    "its hrpsys companions trajectory.waist and trajectory.zmp.\n"
    "\n"
    "options:\n"
    "  -o, --output DIR          output directory\n"
    "  --no-collision            plan without collision constraints (the report still\n"
    "                            gives the certified clearance of every pair)\n"
    "  --static-balance          no dynamics: the centre of mass over the support polygon\n"
    "                            (the `balance` section) instead of the ZMP, friction\n"
    "                            and torque limits that are on when the robot has soles\n"
    "                            and effort limits\n"
    "  --method M                continuous distance method: hybrid (default), gss, ca,\n"
    "                            sampling\n"
    "  --geometry KIND           link geometry of every pair instead of the scenario's\n"
    "                            collision.geometry: capsule, convex, ellipsoid, mesh\n"
    "  --distance D              static distance of the mesh rows instead of the\n"
    "                            scenario's collision.distance: euclidean, phong\n"
    "  --threads N|auto          collision and dynamics rows on N threads; the plan is\n"
    "                            the same whatever N (default auto: the processors this\n"
    "                            process may use, at most 8)\n"
    "  --max-time S              stop optimising after S seconds (default the scenario's\n"
    "                            optimizer.time_limit); the result is then certified as is\n"
    "  --timeout S               end the whole run after S seconds of wall time, writing\n"
    "                            nothing, with the step it was in (exit 3). Default 3600 s,\n"
    "                            or 3 times the optimiser's budget when that is longer: a\n"
    "                            limit for runs no budget bounds (e.g. pathological meshes)\n"
    "  --dump-queries FILE       write every distance query of the run to FILE\n"
    "  --simulate                then replay the plan in MuJoCo (as `hrpplan simulate`):\n"
    "                            sim.json and sim.svg, and its one-line verdict\n"
    "  --json                    print the report (report.json's document) on stdout for\n"
    "                            scripts, the summary table on stderr; a plan that fails\n"
    "                            prints {\"status\": \"failed\", \"exit_code\", \"reason\"}\n"
    "  -q, --quiet               no progress on stderr\n"
    "  -v, --verbose             a progress line after every evaluation of the cost (by\n"
    "                            default at most two a second)\n"
    "  -h, --help                this text\n"
    "\n"
    "exit codes: 0 certified plan (and with --simulate, it stands), 2 bad scenario or\n"
    "            usage, 3 not certified (or it fell, slipped or collided), 1 internal\n";

static const char HELP_SIMULATE[] =
    "usage: hrpplan simulate SCENARIO.yaml TRAJECTORY [-o DIR] [--speed K]\n"
    "                        [--no-feedforward] [--mjcf FILE] [--static-balance]\n"
    "                        [--timeout S]\n"
    "\n"
    "Replays a trajectory (trajectory.json from plan, or a .pos / .csv table) in MuJoCo\n"
    "physics at 1 kHz: the robot free on its soles on a floor, the scenario's obstacles,\n"
    "each joint driven by the inverse-dynamics torque of the plan plus a PD servo,\n"
    "clamped to its effort limit. It holds the first posture 0.5 s, plays the motion,\n"
    "and holds the last posture 1 s. Prints and writes DIR/sim.json and DIR/sim.svg\n"
    "(DIR default out/<scenario name>/): fall, foot slip and lift, tracking error per\n"
    "joint, the centre of pressure against the planned ZMP, torque asked, energy, and\n"
    "the contacts MuJoCo saw between links, obstacles and the floor.\n"
    "\n"
    "options:\n"
    "  -o, --output DIR          output directory\n"
    "  --speed K                 play the motion K times faster (default 1)\n"
    "  --no-feedforward          the PD servo alone, no inverse-dynamics torque\n"
    "  --mjcf FILE               also write the simulated MuJoCo model to FILE\n"
    "  --static-balance          load the scenario without dynamics (as plan did with it)\n"
    "  --timeout S               end the run after S seconds (default 3600), writing\n"
    "                            nothing (exit 3)\n"
    "  -h, --help                this text\n"
    "\n"
    "exit codes: 0 it stands, tracks and touches nothing; 3 it fell, a foot slipped or\n"
    "            lifted 5 mm, a joint lost track by 3 degrees, or MuJoCo saw a\n"
    "            collision; 2 bad input or usage; 1 internal\n";

static const char HELP_CHECK[] =
    "usage: hrpplan check SCENARIO.yaml TRAJECTORY [--geometry KIND] [--json]\n"
    "                     [--timeout S]\n"
    "\n"
    "Re-certifies a trajectory (trajectory.json, .pos or .csv) against a scenario: the\n"
    "certified clearance of every pair, joint position and velocity margins, balance.\n"
    "\n"
    "options:\n"
    "  --geometry KIND           measure the pairs in this link geometry instead of the\n"
    "                            scenario's: capsule, convex, ellipsoid, mesh (e.g. check\n"
    "                            a plan made on capsules against the link meshes)\n"
    "  --json                    print the certificate as JSON on stdout (the document of\n"
    "                            plan's report.json), the table on stderr\n"
    "  --timeout S               give up after S seconds of wall time (default 3600):\n"
    "                            not certified (exit 3), with the step it was in\n"
    "\n"
    "exit codes: 0 certified, 2 bad input or usage, 3 violation found, 1 internal\n";

static const char HELP_BATCH[] =
    "usage: hrpplan batch SCENARIO.yaml... [-j N] [-o OUTDIR] [-q]\n"
    "                     [--max-time S] [--threads N|auto] [--method M] [--geometry KIND]\n"
    "                     [--no-collision] [--static-balance] [--timeout S]\n"
    "       hrpplan batch --summarize OUTDIR [SCENARIO.yaml...]\n"
    "\n"
    "Plans every scenario into its own folder OUTDIR/<stem>/ (stem: the file name without\n"
    ".yaml; a repeated stem gets -2, -3, ... in command-line order), each as a separate\n"
    "`hrpplan plan FILE -o OUTDIR/<stem> -q` process, at most N at once. A plan that\n"
    "crashes or is killed is recorded as crashed and the batch goes on. Then writes\n"
    "OUTDIR/summary.csv and OUTDIR/summary.json, one row per scenario in command-line\n"
    "order: file, output_dir, status (certified, not_certified, bad_input, failed,\n"
    "crashed), exit_code, signal, min_clearance_m, wall_time_s, cause (the report's\n"
    "reason, or the first line the plan wrote on stderr). Progress, one line per plan as\n"
    "it finishes, goes to stderr.\n"
    "\n"
    "--summarize rebuilds the summary of OUTDIR from the folders' report.json without\n"
    "planning (e.g. after a Slurm job array, docs/scale-out.md): of the scenarios named,\n"
    "in that order (a folder without report.json is failed), or else of every folder of\n"
    "OUTDIR with a report.json, by name.\n"
    "\n"
    "options:\n"
    "  -j, --jobs N              plans at once, 1 to 64 (default 1)\n"
    "  -o, --output OUTDIR       where the folders and the summary go (default out/batch)\n"
    "  --summarize OUTDIR        only rebuild OUTDIR/summary.csv and summary.json\n"
    "  --max-time, --timeout, --threads, --method, --geometry, --no-collision,\n"
    "  --static-balance          passed to every plan (see `hrpplan plan --help`);\n"
    "                            without --threads each plan gets --threads P / N (P the\n"
    "                            processors the batch may use; at least 1, at most 8)\n"
    "  -q, --quiet               no progress on stderr\n"
    "  -h, --help                this text\n"
    "\n"
    "exit codes: the worst over the scenarios, in this order: 1 a plan failed or crashed\n"
    "            (or the batch itself failed), 2 a scenario is bad input (or usage),\n"
    "            3 a plan is not certified, 0 every plan certified\n";

static const char HELP_ROBOT[] =
    "usage: hrpplan robot ROBOT.yaml|ROBOT.urdf [--package-path DIRS]\n"
    "       hrpplan robot ROBOT --urdf [-o FILE]\n"
    "\n"
    "Loads and validates a robot description (the project's YAML, or URDF: docs/URDF.md)\n"
    "and prints the model: the link tree, joints with limits, links with masses and\n"
    "geometry (capsules fitted to a URDF's collision shapes), triangle counts, total mass.\n"
    "\n"
    "options:\n"
    "  --urdf                    write the model as URDF instead (to FILE, or stdout); read\n"
    "                            back, it gives the same model\n"
    "  -o FILE                   with --urdf: the output file (written atomically)\n"
    "  --package-path DIRS       colon-separated directories where a URDF's package://\n"
    "                            meshes are looked for, before $ROS_PACKAGE_PATH (every\n"
    "                            command that loads a robot takes it)\n"
    "\n"
    "exit codes: 0 valid model, 2 invalid file or usage, 1 internal\n";

static const char HELP_EXPORT[] =
    "usage: hrpplan export TRAJECTORY.json --format pos|csv|json|ros [--rate HZ]\n"
    "                      -o FILE [--force] [--robot ROBOT]\n"
    "\n"
    "Samples a planned trajectory for a controller. Every sample is checked against the\n"
    "joint position and velocity limits; a trajectory that is not certified is refused\n"
    "unless --force is given. The robot is the trajectory's robot_file, or, when that is\n"
    "gone (the outputs moved), robot_file_relative from the trajectory's directory; it\n"
    "must have the fingerprint recorded in the trajectory (robot_sha256: the robot file\n"
    "and its meshes), or the export is refused.\n"
    "\n"
    "options:\n"
    "  --format F                pos (hrpsys; also writes <stem>.waist and <stem>.zmp),\n"
    "                            csv, json, ros (JointTrajectory YAML)\n"
    "  --rate HZ                 samples per second (default 200, i.e. 5 ms)\n"
    "  -o, --output FILE         file to write (atomically)\n"
    "  --force                   export a trajectory that is not certified\n"
    "  --robot ROBOT             the robot file to use (its fingerprint must match)\n"
    "  -h, --help                this text\n"
    "\n"
    "exit codes: 0 written, 2 bad input or usage, 3 limit violated or not certified\n";

static const char HELP_IMPACT[] =
    "usage: hrpplan impact MECHANISM.yaml [-o DIR] [--solver block|dense] [-q]\n"
    "       hrpplan impact SCENARIO.yaml TRAJECTORY.json --pair A,B [--at T]\n"
    "                      [--restitution E] [--friction MU] [-o DIR] [--solver S] [-q]\n"
    "\n"
    "The response of rigid bodies joined by joints (point, nail, revolute, angle,\n"
    "cylindrical, prismatic, fixed) to one collision: the contact impulse with Newton's\n"
    "restitution and Coulomb friction (sticking or sliding), every joint's impulse force\n"
    "and torque, every body's velocity and angular velocity after, and the kinetic energy\n"
    "before and after (Jung, Lee, Baek, Lee, Ryu; docs/math/impact.md). The mechanism file\n"
    "is described in docs/FILE_FORMATS.md; examples in scenarios/mechanisms/. Prints the\n"
    "result and writes DIR/impact.json (default out/<name>/).\n"
    "\n"
    "The second form takes a planned robot: the links of the pair A,B (or a link and an\n"
    "obstacle) collide at time T, by default at their first contact along the trajectory\n"
    "(certified: every earlier moment is clear; e.g. a plan made with --no-collision).\n"
    "Links are bodies, revolute joints the paper's revolute joints, the feet on the floor\n"
    "welded to it; it prints every joint's impulse and rate before and after.\n"
    "\n"
    "options:\n"
    "  -o, --output DIR          directory of impact.json\n"
    "  --solver block|dense      3x3-block elimination (default) or LAPACKE_dgesv\n"
    "  --pair A,B                the colliding links (robot form; required there)\n"
    "  --at T                    the time of the impact, s (default: the first contact)\n"
    "  --restitution E           Newton's restitution, in [0, 1] (default 0)\n"
    "  --friction MU             Coulomb friction (default: the scenario's dynamics.mu)\n"
    "  -q, --quiet               print only the output line\n"
    "  -h, --help                this text\n"
    "\n"
    "exit codes: 0 solved (or the pair never touches), 2 bad input, a singular system\n"
    "            (redundant or contradictory joints) or usage, 1 internal error\n";

static const char HELP_EXPORT_MJCF[] =
    "usage: hrpplan export-mjcf ROBOT.yaml [-o FILE] [--fixed-base]\n"
    "\n"
    "Writes the robot as a MuJoCo MJCF model: a body per link with its mass, centre of\n"
    "mass and inertia, a hinge per joint with its range, the link capsules, sole boxes,\n"
    "a motor per joint, a floor. The model is the rigid-body system hrpplan's dynamics\n"
    "use, so MuJoCo's own tools can open the robot (e.g. `simulate robot.xml`).\n"
    "\n"
    "options:\n"
    "  -o, --output FILE         file to write (atomically); default standard output\n"
    "  --fixed-base              weld the base to the world instead of a free joint\n"
    "  -h, --help                this text\n"
    "\n"
    "exit codes: 0 written, 2 invalid robot or usage, 1 internal\n";

void pln_cli_print_help(PlnCommand command, FILE *out)
{
    switch (command) {
    case PLN_CMD_PLAN: fputs(HELP_PLAN, out); break;
    case PLN_CMD_CHECK: fputs(HELP_CHECK, out); break;
    case PLN_CMD_ROBOT: fputs(HELP_ROBOT, out); break;
    case PLN_CMD_EXPORT: fputs(HELP_EXPORT, out); break;
    case PLN_CMD_SIMULATE: fputs(HELP_SIMULATE, out); break;
    case PLN_CMD_EXPORT_MJCF: fputs(HELP_EXPORT_MJCF, out); break;
    case PLN_CMD_IMPACT: fputs(HELP_IMPACT, out); break;
    case PLN_CMD_BATCH: fputs(HELP_BATCH, out); break;
    default: fputs(HELP_OVERVIEW, out); break;
    }
}

/* ---- parsing ---------------------------------------------------------------------- */

/* strict integer in [lo, hi]: the whole string must be digits (with an optional sign). */
static int parse_int(const char *s, long lo, long hi, int *out)
{
    char *end;
    long v;
    if (s == NULL || *s == '\0') return 0;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

/* strict finite positive double. */
static int parse_positive(const char *s, double *out)
{
    char *end;
    double v;
    if (s == NULL || *s == '\0') return 0;
    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || *end != '\0' || !isfinite(v) || !(v > 0.0)) return 0;
    *out = v;
    return 1;
}

/* which options a command takes. */
enum {
    OPT_OUTPUT = 1 << 0,
    OPT_NO_COLLISION = 1 << 1,
    OPT_METHOD = 1 << 2,
    OPT_THREADS = 1 << 3,
    OPT_QUIET = 1 << 4,
    OPT_FORMAT = 1 << 5,
    OPT_RATE = 1 << 6,
    OPT_FORCE = 1 << 7,
    OPT_DUMP = 1 << 8,
    OPT_GEOMETRY = 1 << 9,
    OPT_FIXED_BASE = 1 << 10,
    OPT_STATIC_BALANCE = 1 << 11,
    OPT_SIMULATE = 1 << 12,
    OPT_SPEED = 1 << 13,
    OPT_NO_FEEDFORWARD = 1 << 14,
    OPT_MJCF = 1 << 15,
    OPT_SOLVER = 1 << 16,
    OPT_PAIR = 1 << 17,
    OPT_AT = 1 << 18,
    OPT_RESTITUTION = 1 << 19,
    OPT_FRICTION = 1 << 20,
    OPT_MAX_TIME = 1 << 21,
    OPT_URDF = 1 << 22,
    OPT_PACKAGE_PATH = 1 << 23,
    OPT_JOBS = 1 << 24,
    OPT_SUMMARIZE = 1 << 25,
    OPT_JSON = 1 << 26,
    OPT_VERBOSE = 1 << 27,
    OPT_ROBOT = 1 << 28,
    OPT_DISTANCE = 1 << 29,
    OPT_TIMEOUT = 1 << 30
};

typedef struct OptionSpec {
    const char *long_name;  /* without the dashes */
    char short_name;        /* 0 if none */
    int flag;               /* OPT_* */
    int takes_value;
} OptionSpec;

static const OptionSpec OPTIONS[] = {
    {"output", 'o', OPT_OUTPUT, 1},   {"no-collision", 0, OPT_NO_COLLISION, 0},
    {"method", 0, OPT_METHOD, 1},     {"threads", 0, OPT_THREADS, 1},
    {"quiet", 'q', OPT_QUIET, 0},     {"format", 0, OPT_FORMAT, 1},
    {"rate", 0, OPT_RATE, 1},         {"force", 0, OPT_FORCE, 0},
    {"dump-queries", 0, OPT_DUMP, 1}, {"geometry", 0, OPT_GEOMETRY, 1},
    {"fixed-base", 0, OPT_FIXED_BASE, 0}, {"static-balance", 0, OPT_STATIC_BALANCE, 0},
    {"simulate", 0, OPT_SIMULATE, 0}, {"speed", 0, OPT_SPEED, 1},
    {"no-feedforward", 0, OPT_NO_FEEDFORWARD, 0}, {"mjcf", 0, OPT_MJCF, 1},
    {"solver", 0, OPT_SOLVER, 1},     {"pair", 0, OPT_PAIR, 1},
    {"at", 0, OPT_AT, 1},             {"restitution", 0, OPT_RESTITUTION, 1},
    {"friction", 0, OPT_FRICTION, 1}, {"max-time", 0, OPT_MAX_TIME, 1},
    {"urdf", 0, OPT_URDF, 0},         {"package-path", 0, OPT_PACKAGE_PATH, 1},
    {"robot", 0, OPT_ROBOT, 1},       {"distance", 0, OPT_DISTANCE, 1},
    {"jobs", 'j', OPT_JOBS, 1},       {"summarize", 0, OPT_SUMMARIZE, 1},
    {"json", 0, OPT_JSON, 0},         {"verbose", 'v', OPT_VERBOSE, 0},
    {"timeout", 0, OPT_TIMEOUT, 1},
};

static const OptionSpec *find_option(const char *arg, const char **inline_value)
{
    *inline_value = NULL;
    if (arg[0] == '-' && arg[1] == '-') {
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        for (size_t i = 0; i < sizeof OPTIONS / sizeof OPTIONS[0]; ++i) {
            if (strlen(OPTIONS[i].long_name) == len &&
                strncmp(OPTIONS[i].long_name, name, len) == 0) {
                if (eq) *inline_value = eq + 1;
                return &OPTIONS[i];
            }
        }
    } else if (arg[0] == '-' && arg[1] != '\0' && arg[2] == '\0') {
        for (size_t i = 0; i < sizeof OPTIONS / sizeof OPTIONS[0]; ++i) {
            if (OPTIONS[i].short_name == arg[1]) return &OPTIONS[i];
        }
    }
    return NULL;
}

/* ---- did you mean ------------------------------------------------------------------ */

/* Longest name the suggestion compares (longer words are not near any name). */
#define PLN_SUGGEST_MAX_LEN 40

/* Damerau-Levenshtein distance in its optimal-string-alignment form (insertions,
 * deletions, substitutions and transpositions of neighbours, each 1) between a[0..la)
 * and b; words longer than PLN_SUGGEST_MAX_LEN count as far from everything. */
static int edit_distance(const char *a, size_t la, const char *b)
{
    int d[PLN_SUGGEST_MAX_LEN + 1][PLN_SUGGEST_MAX_LEN + 1];
    size_t lb = strlen(b);
    if (la > PLN_SUGGEST_MAX_LEN || lb > PLN_SUGGEST_MAX_LEN) return PLN_SUGGEST_MAX_LEN + 1;
    for (size_t i = 0; i <= la; ++i) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; ++j) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; ++i) {
        for (size_t j = 1; j <= lb; ++j) {
            int cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < v) v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v) {
                v = d[i - 2][j - 2] + 1;
            }
            d[i][j] = v;
        }
    }
    return d[la][lb];
}

/* The name among names[0..n) that word[0..len) most likely meant: the one nearest in
 * edit distance, if it is the only one that near and the distance is at most 2 (at
 * most a third of the name's length, so that short names do not match everything);
 * else the only name that starts with the word (two letters at least); else NULL. */
static const char *suggest(const char *word, size_t len, const char *const *names, int n)
{
    const char *best = NULL, *prefixed = NULL;
    int best_d = PLN_SUGGEST_MAX_LEN + 1, ties = 0, n_prefixed = 0;
    for (int i = 0; i < n; ++i) {
        int dist = edit_distance(word, len, names[i]);
        int limit = (int)(strlen(names[i]) + 1) / 3;
        if (limit > 2) limit = 2;
        if (dist <= limit && dist < best_d) {
            best = names[i];
            best_d = dist;
            ties = 0;
        } else if (dist <= limit && dist == best_d) {
            ++ties;
        }
        if (len >= 2 && len < strlen(names[i]) && strncmp(word, names[i], len) == 0) {
            prefixed = names[i];
            ++n_prefixed;
        }
    }
    if (best != NULL && ties == 0) return best;
    return n_prefixed == 1 ? prefixed : NULL;
}

/* the usage error of an unknown command, with the likely one when there is one */
static PlnStatus unknown_command(const char *word, const PlnCommand *commands, int n_commands,
                                 char *err, size_t err_size)
{
    const char *names[16];
    const char *guess;
    int n = 0;
    for (int i = 0; i < n_commands && n < 15; ++i) names[n++] = pln_command_string(commands[i]);
    names[n++] = "help";
    guess = suggest(word, strlen(word), names, n);
    if (guess != NULL) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size,
                          "hrpplan: unknown command '%s'; did you mean '%s'? (try 'hrpplan "
                          "--help')", word, guess);
    }
    return pln_errorf(PLN_ERR_USAGE, err, err_size,
                      "hrpplan: unknown command '%s' (try 'hrpplan --help')", word);
}


static int allowed_command_options(PlnCommand cmd);

/* --package-path goes with every command: each may load a URDF robot. */
static int allowed_options(PlnCommand cmd)
{
    return allowed_command_options(cmd) | (cmd != PLN_CMD_NONE ? OPT_PACKAGE_PATH : 0);
}

static int allowed_command_options(PlnCommand cmd)
{
    switch (cmd) {
    case PLN_CMD_PLAN:
        return OPT_OUTPUT | OPT_NO_COLLISION | OPT_METHOD | OPT_THREADS | OPT_QUIET | OPT_DUMP |
               OPT_GEOMETRY | OPT_STATIC_BALANCE | OPT_SIMULATE | OPT_MAX_TIME | OPT_JSON |
               OPT_VERBOSE | OPT_DISTANCE | OPT_TIMEOUT;
    case PLN_CMD_BATCH:
        return OPT_OUTPUT | OPT_JOBS | OPT_SUMMARIZE | OPT_QUIET | OPT_NO_COLLISION | OPT_METHOD |
               OPT_THREADS | OPT_GEOMETRY | OPT_STATIC_BALANCE | OPT_MAX_TIME | OPT_TIMEOUT;
    case PLN_CMD_SIMULATE:
        return OPT_OUTPUT | OPT_SPEED | OPT_NO_FEEDFORWARD | OPT_MJCF | OPT_STATIC_BALANCE |
               OPT_TIMEOUT;
    case PLN_CMD_CHECK: return OPT_GEOMETRY | OPT_STATIC_BALANCE | OPT_JSON | OPT_TIMEOUT;
    case PLN_CMD_EXPORT: return OPT_OUTPUT | OPT_FORMAT | OPT_RATE | OPT_FORCE | OPT_ROBOT;
    case PLN_CMD_EXPORT_MJCF: return OPT_OUTPUT | OPT_FIXED_BASE;
    case PLN_CMD_ROBOT: return OPT_URDF | OPT_OUTPUT;
    case PLN_CMD_IMPACT:
        return OPT_OUTPUT | OPT_SOLVER | OPT_QUIET | OPT_PAIR | OPT_AT | OPT_RESTITUTION | OPT_FRICTION;
    default: return 0;
    }
}

static int positional_count(PlnCommand cmd)
{
    switch (cmd) {
    case PLN_CMD_CHECK:
    case PLN_CMD_SIMULATE:
    case PLN_CMD_IMPACT: return 2;
    case PLN_CMD_PLAN:
    case PLN_CMD_ROBOT:
    case PLN_CMD_EXPORT:
    case PLN_CMD_EXPORT_MJCF: return 1;
    case PLN_CMD_BATCH: return PLN_BATCH_MAX_FILES;
    default: return 0;
    }
}

static const char *positional_names(PlnCommand cmd)
{
    switch (cmd) {
    case PLN_CMD_PLAN: return "SCENARIO.yaml";
    case PLN_CMD_CHECK:
    case PLN_CMD_SIMULATE: return "SCENARIO.yaml TRAJECTORY";
    case PLN_CMD_ROBOT:
    case PLN_CMD_EXPORT_MJCF: return "ROBOT.yaml";
    case PLN_CMD_EXPORT: return "TRAJECTORY.json";
    case PLN_CMD_IMPACT: return "MECHANISM.yaml | SCENARIO.yaml TRAJECTORY.json --pair A,B";
    case PLN_CMD_BATCH: return "SCENARIO.yaml...";
    default: return "";
    }
}

/* applies one option with its value to args. */
static PlnStatus apply_option(const OptionSpec *o, const char *value, PlnCliArgs *args,
                              const char *cmd, char *err, size_t err_size)
{
    switch (o->flag) {
    case OPT_OUTPUT:
        if (value[0] == '\0') {
            return pln_errorf(PLN_ERR_USAGE, err, err_size, "hrpplan %s: --output is empty", cmd);
        }
        if (args->command == PLN_CMD_PLAN || args->command == PLN_CMD_SIMULATE ||
            args->command == PLN_CMD_IMPACT || args->command == PLN_CMD_BATCH) {
            args->out_dir = value;
        }
        else args->output = value;
        return PLN_OK;
    case OPT_NO_COLLISION: args->no_collision = 1; return PLN_OK;
    case OPT_STATIC_BALANCE: args->static_balance = 1; return PLN_OK;
    case OPT_QUIET: args->quiet = 1; return PLN_OK;
    case OPT_FORCE: args->force = 1; return PLN_OK;
    case OPT_FIXED_BASE: args->fixed_base = 1; return PLN_OK;
    case OPT_SIMULATE: args->simulate = 1; return PLN_OK;
    case OPT_NO_FEEDFORWARD: args->no_feedforward = 1; return PLN_OK;
    case OPT_JSON: args->json = 1; return PLN_OK;
    case OPT_VERBOSE: args->verbose = 1; return PLN_OK;
    case OPT_JOBS:
        if (!parse_int(value, 1, PLN_BATCH_MAX_JOBS, &args->jobs)) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: -j '%s': expected an integer from 1 to %d", cmd, value,
                              PLN_BATCH_MAX_JOBS);
        }
        args->jobs_given = 1;
        return PLN_OK;
    case OPT_SUMMARIZE:
        if (value[0] == '\0') {
            return pln_errorf(PLN_ERR_USAGE, err, err_size, "hrpplan %s: --summarize is empty", cmd);
        }
        args->summarize = value;
        return PLN_OK;
    case OPT_MAX_TIME:
        if (!parse_positive(value, &args->max_time) || args->max_time > 86400.0) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: --max-time '%s': expected seconds in (0, 86400]", cmd, value);
        }
        return PLN_OK;
    case OPT_TIMEOUT:
        if (!parse_positive(value, &args->timeout) || args->timeout > PLN_TIMEOUT_MAX_S) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: --timeout '%s': expected seconds in (0, %.0f]", cmd, value,
                              PLN_TIMEOUT_MAX_S);
        }
        return PLN_OK;
    case OPT_PAIR:
        if (strchr(value, ',') == NULL) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size, "hrpplan %s: --pair '%s': expected LINK_A,LINK_B",
                              cmd, value);
        }
        args->pair = value;
        return PLN_OK;
    case OPT_AT: {
        char *end;
        errno = 0;
        args->at = strtod(value, &end);
        if (errno != 0 || *end != '\0' || value[0] == '\0' || !isfinite(args->at) || args->at < 0.0) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size, "hrpplan %s: --at '%s': expected a time >= 0 in seconds",
                              cmd, value);
        }
        return PLN_OK;
    }
    case OPT_RESTITUTION:
    case OPT_FRICTION: {
        char *end;
        double v;
        errno = 0;
        v = strtod(value, &end);
        if (errno != 0 || *end != '\0' || value[0] == '\0' || !isfinite(v) || v < 0.0 ||
            (o->flag == OPT_RESTITUTION && v > 1.0)) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size, "hrpplan %s: --%s '%s': expected %s", cmd, o->long_name,
                              value, o->flag == OPT_RESTITUTION ? "a number in [0, 1]" : "a number >= 0");
        }
        if (o->flag == OPT_RESTITUTION) args->restitution = v;
        else args->friction = v;
        return PLN_OK;
    }
    case OPT_SOLVER:
        if (strcmp(value, "block") != 0 && strcmp(value, "dense") != 0) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: --solver '%s': expected block or dense", cmd, value);
        }
        args->impact_dense = strcmp(value, "dense") == 0;
        return PLN_OK;
    case OPT_URDF:
        args->urdf = 1;
        return PLN_OK;
    case OPT_ROBOT:
        if (value[0] == '\0') {
            return pln_errorf(PLN_ERR_USAGE, err, err_size, "hrpplan %s: --robot is empty", cmd);
        }
        args->export_robot = value;
        return PLN_OK;
    case OPT_PACKAGE_PATH:
        if (value[0] == '\0') {
            return pln_errorf(PLN_ERR_USAGE, err, err_size, "hrpplan %s: --package-path is empty", cmd);
        }
        args->package_path = value;
        return PLN_OK;
    case OPT_MJCF:
        if (value[0] == '\0') {
            return pln_errorf(PLN_ERR_USAGE, err, err_size, "hrpplan %s: --mjcf is empty", cmd);
        }
        args->mjcf = value;
        return PLN_OK;
    case OPT_SPEED:
        if (!parse_positive(value, &args->speed) || args->speed > 100.0) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: --speed '%s': expected a number in (0, 100]", cmd,
                              value);
        }
        return PLN_OK;
    case OPT_DUMP:
        if (value[0] == '\0') {
            return pln_errorf(PLN_ERR_USAGE, err, err_size, "hrpplan %s: --dump-queries is empty",
                              cmd);
        }
        args->dump_queries = value;
        return PLN_OK;
    case OPT_GEOMETRY:
        if (strcmp(value, "capsule") != 0 && strcmp(value, "convex") != 0 &&
            strcmp(value, "ellipsoid") != 0 && strcmp(value, "mesh") != 0) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: --geometry '%s': expected capsule, convex, ellipsoid or "
                              "mesh",
                              cmd, value);
        }
        args->geometry = value;
        return PLN_OK;
    case OPT_DISTANCE:
        if (strcmp(value, "euclidean") != 0 && strcmp(value, "phong") != 0) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: --distance '%s': expected euclidean or phong", cmd, value);
        }
        args->distance = value;
        return PLN_OK;
    case OPT_METHOD:
        args->method_given = 1;
        if (pln_method_from_string(value, &args->method) != PLN_OK) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: --method '%s': expected hybrid, gss, ca or sampling",
                              cmd, value);
        }
        return PLN_OK;
    case OPT_THREADS:
        if (strcmp(value, "auto") == 0) {
            args->threads = PLN_THREADS_AUTO;
        } else if (!parse_int(value, 1, PLN_MAX_THREADS, &args->threads)) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: --threads '%s': expected auto or an integer from 1 to 64",
                              cmd, value);
        }
        return PLN_OK;
    case OPT_FORMAT:
        if (pln_format_from_string(value, &args->format) != PLN_OK) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: --format '%s': expected pos, csv, json or ros", cmd,
                              value);
        }
        return PLN_OK;
    case OPT_RATE:
        if (!parse_positive(value, &args->rate_hz)) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: --rate '%s': expected a positive number of hertz",
                              cmd, value);
        }
        return PLN_OK;
    default:
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "unhandled option --%s",
                          o->long_name);
    }
}

PlnStatus pln_cli_parse(int argc, char *const argv[], PlnCliArgs *args, char *err,
                        size_t err_size)
{
    static const PlnCommand commands[] = {PLN_CMD_PLAN,        PLN_CMD_CHECK,    PLN_CMD_ROBOT,
                                          PLN_CMD_EXPORT,      PLN_CMD_EXPORT_MJCF, PLN_CMD_SIMULATE,
                                          PLN_CMD_IMPACT,      PLN_CMD_BATCH};
    const char *positional[2] = {NULL, NULL};
    int npos = 0, only_positional = 0;
    const char *cmd;

    memset(args, 0, sizeof *args);
    args->method = PLN_METHOD_HYBRID;
    args->threads = PLN_THREADS_AUTO;
    args->jobs = 1;
    args->rate_hz = 200.0;
    args->speed = 1.0;
    args->at = NAN;
    args->friction = NAN;
    args->max_time = NAN;
    args->timeout = NAN;

    if (argc < 2) {
        args->command = PLN_CMD_NONE;
        return pln_errorf(PLN_ERR_USAGE, err, err_size,
                          "hrpplan: no command given (try 'hrpplan --help')");
    }
    cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        args->command = PLN_CMD_HELP;
        if (argc > 2 && strcmp(cmd, "help") == 0) {
            /* `hrpplan help plan` is the same as `hrpplan plan --help` */
            for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
                if (strcmp(argv[2], pln_command_string(commands[i])) == 0) {
                    args->command = commands[i];
                    args->help = 1;
                    return PLN_OK;
                }
            }
            return unknown_command(argv[2], commands, (int)(sizeof commands / sizeof commands[0]),
                                   err, err_size);
        }
        return PLN_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        args->command = PLN_CMD_VERSION;
        return PLN_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
        if (strcmp(cmd, pln_command_string(commands[i])) == 0) args->command = commands[i];
    }
    if (args->command == PLN_CMD_NONE) {
        return unknown_command(cmd, commands, (int)(sizeof commands / sizeof commands[0]), err,
                               err_size);
    }

    for (int i = 2; i < argc; ++i) {
        const char *a = argv[i];
        if (!only_positional && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            args->help = 1;
            return PLN_OK;
        }
        if (!only_positional && strcmp(a, "--") == 0) {
            only_positional = 1;
            continue;
        }
        if (!only_positional && a[0] == '-' && a[1] != '\0') {
            const char *inline_value;
            const OptionSpec *o = find_option(a, &inline_value);
            const char *value = NULL;
            PlnStatus st;
            if (o == NULL || !(allowed_options(args->command) & o->flag)) {
                const char *guess = NULL;
                if (a[1] == '-') {
                    /* the nearest long option this command takes */
                    const char *names[sizeof OPTIONS / sizeof OPTIONS[0] + 1];
                    const char *eq = strchr(a + 2, '=');
                    int n = 0;
                    for (size_t k = 0; k < sizeof OPTIONS / sizeof OPTIONS[0]; ++k) {
                        if (allowed_options(args->command) & OPTIONS[k].flag) {
                            names[n++] = OPTIONS[k].long_name;
                        }
                    }
                    names[n++] = "help";
                    guess = suggest(a + 2, eq ? (size_t)(eq - (a + 2)) : strlen(a + 2), names, n);
                }
                if (guess != NULL) {
                    return pln_errorf(PLN_ERR_USAGE, err, err_size,
                                      "hrpplan %s: unknown option '%s'; did you mean '--%s'? (try "
                                      "'hrpplan %s --help')", cmd, a, guess, cmd);
                }
                return pln_errorf(PLN_ERR_USAGE, err, err_size,
                                  "hrpplan %s: unknown option '%s' (try 'hrpplan %s --help')",
                                  cmd, a, cmd);
            }
            if (o->takes_value) {
                if (inline_value != NULL) {
                    value = inline_value;
                } else if (i + 1 < argc) {
                    value = argv[++i];
                } else {
                    return pln_errorf(PLN_ERR_USAGE, err, err_size,
                                      "hrpplan %s: option '%s' needs a value", cmd, a);
                }
            } else if (inline_value != NULL) {
                return pln_errorf(PLN_ERR_USAGE, err, err_size,
                                  "hrpplan %s: option '--%s' takes no value", cmd, o->long_name);
            }
            st = apply_option(o, value, args, cmd, err, err_size);
            if (st != PLN_OK) return st;
            continue;
        }
        if (npos >= positional_count(args->command)) {
            if (args->command == PLN_CMD_BATCH) {
                return pln_errorf(PLN_ERR_USAGE, err, err_size,
                                  "hrpplan batch: more than %d scenarios (split the list, or use a "
                                  "job array: docs/scale-out.md)", PLN_BATCH_MAX_FILES);
            }
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan %s: unexpected argument '%s' (usage: hrpplan %s %s)", cmd,
                              a, cmd, positional_names(args->command));
        }
        if (args->command == PLN_CMD_BATCH) args->files[npos] = a;
        else positional[npos] = a;
        ++npos;
    }
    if (args->command == PLN_CMD_BATCH) {
        args->n_files = npos;
        if (npos == 0 && args->summarize == NULL) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan batch: no scenario given (usage: hrpplan batch "
                              "SCENARIO.yaml... [-j N] [-o OUTDIR])");
        }
        if (args->summarize != NULL && args->out_dir != NULL) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan batch: --summarize OUTDIR names the folder; -o is not "
                              "used with it");
        }
        if (args->summarize != NULL && args->jobs_given) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan batch: --summarize plans nothing; -j is not used with it");
        }
        return PLN_OK;
    }
    if (npos < positional_count(args->command) && !(args->command == PLN_CMD_IMPACT && npos == 1)) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size,
                          "hrpplan %s: missing argument (usage: hrpplan %s %s)", cmd, cmd,
                          positional_names(args->command));
    }
    switch (args->command) {
    case PLN_CMD_PLAN:
        args->scenario = positional[0];
        if (args->quiet && args->verbose) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan plan: -q (no progress) and -v (every evaluation) "
                              "contradict each other");
        }
        break;
    case PLN_CMD_CHECK:
    case PLN_CMD_SIMULATE:
        args->scenario = positional[0];
        args->trajectory = positional[1];
        break;
    case PLN_CMD_ROBOT:
    case PLN_CMD_EXPORT_MJCF: args->robot = positional[0]; break;
    case PLN_CMD_IMPACT:
        if (npos == 1) {
            args->mechanism = positional[0];
            if (args->pair != NULL || !isnan(args->at) || args->restitution != 0.0 || !isnan(args->friction)) {
                return pln_errorf(PLN_ERR_USAGE, err, err_size,
                                  "hrpplan impact: --pair, --at, --restitution and --friction are for a "
                                  "planned robot (SCENARIO.yaml TRAJECTORY.json); a mechanism file gives "
                                  "its own contact");
            }
        } else {
            args->scenario = positional[0];
            args->trajectory = positional[1];
            if (args->pair == NULL) {
                return pln_errorf(PLN_ERR_USAGE, err, err_size,
                                  "hrpplan impact: --pair LINK_A,LINK_B is required with SCENARIO.yaml TRAJECTORY.json");
            }
        }
        break;
    case PLN_CMD_EXPORT:
        args->trajectory = positional[0];
        if (args->format == PLN_FORMAT_NONE) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan export: --format is required (pos, csv, json or ros)");
        }
        if (args->output == NULL) {
            return pln_errorf(PLN_ERR_USAGE, err, err_size,
                              "hrpplan export: -o FILE is required");
        }
        break;
    default: break;
    }
    return PLN_OK;
}

/* ---- running ---------------------------------------------------------------------- */

/* an input file must exist and be a readable regular file (a FIFO is refused, not
 * waited on); its loader then applies the size cap of its kind. */
static PlnStatus check_input(const char *path, const char *what, char *err, size_t err_size)
{
    FILE *f;
    PlnStatus st = pln_file_open_input(path, what, PLN_MAX_TABLE_BYTES, &f, err, err_size);
    if (st == PLN_OK) fclose(f);
    return st;
}

/* an output file must not name a directory (or a device), an output directory must not
 * name a file: said before any work starts, not after a long plan */
static PlnStatus check_output(const char *path, int want_dir, const char *what, char *err,
                              size_t err_size)
{
    struct stat sb;
    if (path == NULL || stat(path, &sb) != 0) return PLN_OK; /* to be created */
    if (want_dir && !S_ISDIR(sb.st_mode)) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size,
                          "%s: %s names an existing file, not a directory", path, what);
    }
    if (!want_dir && !S_ISREG(sb.st_mode)) {
        return pln_errorf(PLN_ERR_USAGE, err, err_size, "%s: %s names %s, not a file", path, what,
                          S_ISDIR(sb.st_mode) ? "a directory" : "a special file");
    }
    return PLN_OK;
}

int pln_cli_main(int argc, char *const argv[], FILE *out, FILE *errs)
{
    PlnCliArgs args;
    char err[1024];
    PlnStatus st = pln_cli_parse(argc, argv, &args, err, sizeof err);

    if (st != PLN_OK) {
        fprintf(errs, "%s\n", err);
        return pln_status_exit_code(st);
    }
    if (args.command == PLN_CMD_HELP || args.help) {
        pln_cli_print_help(args.command, out);
        return PLN_EXIT_OK;
    }
    if (args.command == PLN_CMD_VERSION) {
        fprintf(out, "hrpplan %s (libdistance %s)\n", PLN_VERSION, dst_version());
        return PLN_EXIT_OK;
    }
    /* --package-path: searched before $ROS_PACKAGE_PATH by every URDF load of this run
     * (model/pln_urdf.h reads the variable) */
    if (args.package_path != NULL) {
        const char *old = getenv("ROS_PACKAGE_PATH");
        size_t n = strlen(args.package_path) + (old != NULL ? strlen(old) + 1 : 0) + 1;
        char *joined = malloc(n);
        if (joined == NULL) {
            fprintf(errs, "hrpplan: out of memory\n");
            return PLN_EXIT_INTERNAL;
        }
        snprintf(joined, n, "%s%s%s", args.package_path, old != NULL ? ":" : "", old != NULL ? old : "");
        setenv("ROS_PACKAGE_PATH", joined, 1);
        free(joined);
    }

    /* every named input must be readable before any work starts */
    switch (args.command) {
    case PLN_CMD_PLAN: st = check_input(args.scenario, "scenario", err, sizeof err); break;
    case PLN_CMD_CHECK:
    case PLN_CMD_SIMULATE:
        st = check_input(args.scenario, "scenario", err, sizeof err);
        if (st == PLN_OK) st = check_input(args.trajectory, "trajectory", err, sizeof err);
        break;
    case PLN_CMD_ROBOT:
    case PLN_CMD_EXPORT_MJCF: st = check_input(args.robot, "robot file", err, sizeof err); break;
    case PLN_CMD_EXPORT: st = check_input(args.trajectory, "trajectory", err, sizeof err); break;
    case PLN_CMD_IMPACT:
        if (args.mechanism != NULL) {
            st = check_input(args.mechanism, "mechanism file", err, sizeof err);
        } else {
            st = check_input(args.scenario, "scenario", err, sizeof err);
            if (st == PLN_OK) st = check_input(args.trajectory, "trajectory", err, sizeof err);
        }
        break;
    default: break;
    }
    if (st == PLN_OK) st = check_output(args.out_dir, 1, "-o", err, sizeof err);
    if (st == PLN_OK) st = check_output(args.output, 0, "-o", err, sizeof err);
    if (st == PLN_OK) st = check_output(args.dump_queries, 0, "--dump-queries", err, sizeof err);
    if (st == PLN_OK) st = check_output(args.mjcf, 0, "--mjcf", err, sizeof err);
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan %s: %s\n", pln_command_string(args.command), err);
        return pln_status_exit_code(st);
    }

    /* every file a command writes is one output set: all of it lands, or none of it
     * (a bad input, usage or internal failure leaves every target as it was) */
    st = pln_atomic_set_begin(err, sizeof err);
    if (st == PLN_OK) {
        /* a signal, or the wall-clock limit of plan, check and simulate, ends the run
         * with nothing written (base/pln_watchdog.h); batch's plans each have their own */
        int timed = args.command == PLN_CMD_PLAN || args.command == PLN_CMD_CHECK ||
                    args.command == PLN_CMD_SIMULATE;
        double limit = !timed ? 0.0 : !isnan(args.timeout) ? args.timeout : PLN_TIMEOUT_DEFAULT_S;
        st = pln_watchdog_begin(pln_command_string(args.command), limit, PLN_EXIT_NOT_CERTIFIED,
                                args.json, err, sizeof err);
        if (st != PLN_OK) pln_atomic_set_end(0, NULL, err, sizeof err);
    }
    if (st != PLN_OK) {
        fprintf(errs, "hrpplan %s: %s\n", pln_command_string(args.command), err);
        return pln_status_exit_code(st);
    }
    {
        int code = -1, wrote = 0;
        switch (args.command) {
        case PLN_CMD_PLAN: code = pln_cmd_plan(&args, out, errs); break;
        case PLN_CMD_CHECK: code = pln_cmd_check(&args, out, errs); break;
        case PLN_CMD_ROBOT: code = pln_cmd_robot(&args, out, errs); break;
        case PLN_CMD_EXPORT: code = pln_cmd_export(&args, out, errs); break;
        case PLN_CMD_EXPORT_MJCF: code = pln_cmd_export_mjcf(&args, out, errs); break;
        case PLN_CMD_SIMULATE: code = pln_cmd_simulate(&args, out, errs); break;
        case PLN_CMD_IMPACT: code = pln_cmd_impact(&args, out, errs); break;
        case PLN_CMD_BATCH: code = pln_cmd_batch(&args, out, errs, &wrote); break;
        default: break;
        }
        if (code >= 0) {
            /* batch's exit code is its scenarios' worst; its summary, which records them,
             * lands whenever it was written in full */
            int commit = code == PLN_EXIT_OK || code == PLN_EXIT_NOT_CERTIFIED || wrote;
            int n_files = 0;
            /* the work is done: no timeout may cut the final renames short */
            pln_watchdog_end();
            st = pln_atomic_set_end(commit, &n_files, err, sizeof err);
            if (st != PLN_OK) {
                fprintf(errs, "hrpplan %s: %s\n", pln_command_string(args.command), err);
                if (code == PLN_EXIT_OK) code = pln_status_exit_code(st);
            } else if (!commit && n_files > 0) {
                fprintf(errs, "hrpplan %s: no output written (the run failed)\n",
                        pln_command_string(args.command));
            }
            return code;
        }
        pln_watchdog_end();
        pln_atomic_set_end(0, NULL, err, sizeof err);
    }
    fprintf(errs, "hrpplan: internal error: unhandled command\n");
    return PLN_EXIT_INTERNAL;
}
