/* pln_table.h — sampled joint trajectories: the tables controllers play.
 *
 * A table is n_rows samples of n_joints joint positions at strictly increasing times
 * (seconds, radians). Two text layouts are read and written:
 *  - hrpsys SequencePlayer `.pos`: one line per sample, `time q1 ... qn`, separated by
 *    spaces; no header; lines starting with '#' are comments.
 *  - `.csv`: a header `time,<joint names>` then one row per sample; '#' comments allowed.
 * Numbers are written with 17 significant digits, so reading back is exact. Writers go
 * through the atomic writer: a failure leaves no file. Readers validate everything and
 * name the file, line and column at fault. */
#ifndef PLN_TABLE_H
#define PLN_TABLE_H

#include <stddef.h>

#include "model/pln_robot.h"
#include "base/pln_status.h"

typedef struct PlnTable {
    int n_joints;
    int n_rows;
    char (*names)[PLN_NAME_MAX];  /* n_joints names; "" when read from a .pos file */
    double *t;                    /* n_rows times, strictly increasing */
    double *q;                    /* row-major n_rows x n_joints */
    double *qd, *qdd;             /* nullable: velocities and accelerations, same shape,
                                     when the table was sampled from a spline (rad/s,
                                     rad/s^2); NULL for a table read from a file */
} PlnTable;

/* Allocates a table of the given shape (names empty, values zero). */
PlnStatus pln_table_create(PlnTable *table, int n_joints, int n_rows, char *err, size_t err_size);

/* Allocates the table's qd and qdd (zero), for a sampler that knows them. */
PlnStatus pln_table_add_derivatives(PlnTable *table, char *err, size_t err_size);

/* A new table *dst of the first n joints of src (names, times, positions and, when src
 * has them, derivatives): the robot's own joints of a plan on a free base, whose six
 * virtual joints come last (model/pln_robot.h pln_robot_free_base). PLN_ERR_INVALID
 * unless 1 <= n <= src->n_joints. Destroy *dst with pln_table_destroy (also on failure). */
PlnStatus pln_table_first_joints(const PlnTable *src, int n, PlnTable *dst, char *err,
                                 size_t err_size);

/* Frees what a table owns; safe on a zeroed or already destroyed table. */
void pln_table_destroy(PlnTable *table);

/* Sample times of a trajectory of `duration` seconds at `rate_hz`: t_k = k / rate_hz for
 * k = 0, 1, ... while t_k < duration (up to a relative tolerance), then exactly `duration`
 * as the last sample. Writes the count to *n and, if times is not NULL, the times
 * (capacity `cap`). PLN_ERR_INVALID for a non-positive or non-finite duration or rate, or
 * more than `cap` samples. */
PlnStatus pln_table_times(double duration, double rate_hz, double *times, int cap, int *n,
                          char *err, size_t err_size);

/* Writes the table as hrpsys .pos / as .csv. `comment`, when not NULL, is written first
 * as a '#' line (used to mark forced, uncertified exports). PLN_ERR_INVALID if a value is
 * not finite or times do not increase; PLN_ERR_IO if the file cannot be written. */
PlnStatus pln_table_write_pos(const PlnTable *table, const char *path, const char *comment,
                              char *err, size_t err_size);
PlnStatus pln_table_write_csv(const PlnTable *table, const char *path, const char *comment,
                              char *err, size_t err_size);

/* Reads a .pos or .csv file (chosen by the extension; anything not ending in .csv is
 * read as .pos). The table is created here; destroy it with pln_table_destroy. */
PlnStatus pln_table_read(const char *path, PlnTable *table, char *err, size_t err_size);

#endif /* PLN_TABLE_H */
