/* pln_pairs.h — the default pair set: the whole robot, from the model.
 *
 * Contract. pln_pairs_all() fills a scenario's pairs with every pair of links, and every
 * link with every obstacle, that can come closer during the motion, so that a
 * certificate covers the whole robot (issue 21 item 6), and records in sc->excluded every
 * pair it leaves out with the reason and, where measured, the distance at the initial
 * posture (docs/SCENARIO_FORMAT.md, "pairs"):
 *   adjacent            a link and its parent: they share a joint and their shapes meet
 *                       there by construction;
 *   no_geometry         a link without a shape of the scenario's geometry;
 *   obstacle_not_measurable  an obstacle the geometry cannot take (meshes outside mesh
 *                       geometry; spheres and capsules inside it);
 *   rigid               no moving joint of the scenario between the two (or, for an
 *                       obstacle, above the link): the distance is the same at every
 *                       instant, and is recorded;
 *   always_in_contact   overlapping at the initial posture and at every one of
 *                       PLN_PAIRS_CONTACT_SAMPLES postures of the joints between them
 *                       drawn over their ranges (deterministically): neighbouring links
 *                       whose enclosing shapes always overlap;
 *   in_contact_at_start overlapping at the initial posture but not always: no motion
 *                       from that posture could keep them apart at t = 0, so they cannot
 *                       be a constraint; named so that the user sees them.
 * Distances are the scenario geometry's signed distances (problem/pln_geom.h). The
 * scenario must be resolved up to its pairs (joints, initial posture, obstacles);
 * sc->pairs gets room for `extra` more pairs (collision.pairs.add). */
#ifndef PLN_PAIRS_H
#define PLN_PAIRS_H

#include <stddef.h>

#include "base/pln_status.h"
#include "model/pln_robot.h"
#include "problem/pln_scenario.h"

/* Postures drawn per overlapping pair to tell always_in_contact from in_contact_at_start. */
#define PLN_PAIRS_CONTACT_SAMPLES 64

PlnStatus pln_pairs_all(PlnScenario *sc, const PlnRobot *robot, int extra, char *err,
                        size_t err_size);

#endif /* PLN_PAIRS_H */
