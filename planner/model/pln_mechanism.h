/* pln_mechanism.h — a mechanism file for `hrpplan impact`: bodies, joints and one contact
 * in YAML (docs/FILE_FORMATS.md "Mechanism files", an example per field), read into a
 * PlnImpactSystem (model/pln_impact.h). Every error names file:line:column and the field.
 *
 * Choices. Axes and the normal are normalised (a zero vector is refused); `inertia` is
 * three principal moments along the world axes or a full 3x3 matrix (symmetric, positive
 * definite); `world` is the still environment, a reserved body name; velocities default
 * to zero. */
#ifndef PLN_MECHANISM_H
#define PLN_MECHANISM_H

#include <stddef.h>

#include "base/pln_status.h"
#include "model/pln_impact.h"

typedef struct PlnMechanism {
    char name[PLN_IMPACT_NAME_MAX];
    char path[1024];
    int n_bodies;
    PlnImpactBody *bodies;      /* owned */
    int n_joints;
    PlnImpactJoint *joints;     /* owned */
    PlnImpactSystem system;     /* views bodies and joints */
    double joint_residual;      /* how far the given velocities break the joints (m/s, rad/s) */
} PlnMechanism;

/* 1 when the YAML file at path is a mechanism (its root has `bodies`), 0 otherwise or when
 * it cannot be read (the loaders of either kind then say why). */
int pln_mechanism_is_mechanism_file(const char *path);

PlnStatus pln_mechanism_load(const char *path, PlnMechanism *out, char *err, size_t err_size);
void pln_mechanism_destroy(PlnMechanism *m);

#endif /* PLN_MECHANISM_H */
