/* pln_impactout.h — what `hrpplan impact` prints and writes (impact.json,
 * docs/FILE_FORMATS.md): the contact, its impulse, every joint's impulse, every body's
 * velocities before and after, the kinetic energy before and after. */
#ifndef PLN_IMPACTOUT_H
#define PLN_IMPACTOUT_H

#include <stddef.h>
#include <stdio.h>

#include "base/pln_status.h"
#include "model/pln_impact.h"

/* Extra, robot-specific lines of the report (nullable everywhere). */
typedef struct PlnImpactReportRobot {
    const char *scenario;          /* scenario file */
    const char *trajectory;        /* trajectory file */
    double time;                   /* s: the instant of the impact */
    const char *time_source;       /* "given" (--at) or "first contact" */
    int n_joints;                  /* robot joints with a velocity change */
    const char *const *joint_names;
    const double *qd_before;       /* rad/s */
    const double *qd_after;
} PlnImpactReportRobot;

void pln_impactout_print(FILE *out, const char *name, const PlnImpactSystem *s,
                         const PlnImpactResult *r, const PlnImpactReportRobot *robot);

/* impact.json at path, atomically. */
PlnStatus pln_impactout_json(const char *path, const char *name, const char *solver,
                             const PlnImpactSystem *s, const PlnImpactResult *r,
                             const PlnImpactReportRobot *robot, char *err, size_t err_size);

#endif /* PLN_IMPACTOUT_H */
