/* pln_impactout.c — the printout and impact.json of `hrpplan impact`. */
#include "output/pln_impactout.h"

#include <math.h>
#include <string.h>

#include "base/pln_atomic.h"
#include "base/pln_json.h"

static const char *body_name(const PlnImpactSystem *s, int k)
{
    return k == PLN_IMPACT_WORLD ? "world" : s->bodies[k].name;
}

void pln_impactout_print(FILE *out, const char *name, const PlnImpactSystem *s,
                         const PlnImpactResult *r, const PlnImpactReportRobot *robot)
{
    const PlnImpactContact *c = &s->contact;
    fprintf(out, "impact: %s: %d bodies, %d joints, %d unknowns\n", name, s->n_bodies, s->n_joints, r->unknowns);
    if (robot != NULL) {
        fprintf(out, "at t = %.6f s (%s) of %s\n", robot->time, robot->time_source, robot->trajectory);
    }
    fprintf(out, "contact: %s on %s at (%.6f, %.6f, %.6f) m, normal (%.6f, %.6f, %.6f), e %.3g, mu %.3g\n",
            body_name(s, c->body_a), body_name(s, c->body_b), c->point[0], c->point[1], c->point[2], c->normal[0],
            c->normal[1], c->normal[2], c->restitution, c->mu);
    fprintf(out, "relative velocity before: normal %.6f m/s, tangential %.6f m/s\n", r->u_before[0],
            hypot(r->u_before[1], r->u_before[2]));
    if (!r->approaching) {
        fprintf(out, "the contact points separate already: no impulse, nothing changes\n");
        return;
    }
    fprintf(out, "impulse on %s: (%.6f, %.6f, %.6f) N s; normal %.6f, tangential %.6f (%s)\n", body_name(s, c->body_a),
            r->P[0], r->P[1], r->P[2], r->P_ntr[0], hypot(r->P_ntr[1], r->P_ntr[2]),
            r->sliding ? (c->mu > 0.0 ? "sliding, on the friction cone" : "frictionless") : "sticking, inside the cone");
    fprintf(out, "relative velocity after:  normal %.6f m/s, tangential %.6f m/s\n", r->u_after[0],
            hypot(r->u_after[1], r->u_after[2]));
    if (s->n_joints > 0) {
        fprintf(out, "%-24s %-11s %-12s %-34s %s\n", "joint", "type", "bodies", "impulse force on the first [N s]",
                "impulse torque [N m s]");
        for (int j = 0; j < s->n_joints; ++j) {
            const PlnImpactJoint *jt = &s->joints[j];
            char bodies[2 * PLN_IMPACT_NAME_MAX + 2];
            snprintf(bodies, sizeof bodies, "%s,%s", body_name(s, jt->body_i), body_name(s, jt->body_j));
            fprintf(out, "%-24s %-11s %-12s (%9.4f, %9.4f, %9.4f)     (%9.4f, %9.4f, %9.4f)\n", jt->name,
                    pln_impact_joint_type_name(jt->type), bodies, r->joint_P[3 * j], r->joint_P[3 * j + 1],
                    r->joint_P[3 * j + 2], r->joint_T[3 * j], r->joint_T[3 * j + 1], r->joint_T[3 * j + 2]);
        }
    }
    if (robot != NULL && robot->n_joints > 0) {
        fprintf(out, "%-24s %14s %14s\n", "robot joint", "qd before", "qd after [rad/s]");
        for (int j = 0; j < robot->n_joints; ++j) {
            fprintf(out, "%-24s %14.6f %14.6f\n", robot->joint_names[j], robot->qd_before[j], robot->qd_after[j]);
        }
    } else {
        fprintf(out, "%-24s %-40s %s\n", "body", "velocity after [m/s]", "angular velocity after [rad/s]");
        for (int k = 0; k < s->n_bodies; ++k) {
            fprintf(out, "%-24s (%10.5f, %10.5f, %10.5f)     (%10.5f, %10.5f, %10.5f)\n", s->bodies[k].name, r->v[3 * k],
                    r->v[3 * k + 1], r->v[3 * k + 2], r->w[3 * k], r->w[3 * k + 1], r->w[3 * k + 2]);
        }
    }
    fprintf(out, "kinetic energy: %.6f J before, %.6f J after (%+.6f J)\n", r->energy_before, r->energy_after,
            r->energy_after - r->energy_before);
    if (r->energy_capped) {
        fprintf(out,
                "note: Newton's restitution e = %g with friction mu = %g would have created energy; "
                "solved with e = %.6g and mu = %.6g, the largest that do not (docs/math/impact.md eq. I15)\n",
                s->contact.restitution, s->contact.mu, r->restitution_used, r->mu_used);
    }
    if (r->energy_gain) {
        fprintf(out, "note: the energy grew: Newton's restitution with friction can do that (docs/math/impact.md sec. 6)\n");
    }
}

static void vec(PlnJson *w, const char *key, const double *v)
{
    pln_json_key(w, key);
    pln_json_begin_array(w);
    for (int d = 0; d < 3; ++d) pln_json_number(w, v[d]);
    pln_json_end_array(w);
}

PlnStatus pln_impactout_json(const char *path, const char *name, const char *solver,
                             const PlnImpactSystem *s, const PlnImpactResult *r,
                             const PlnImpactReportRobot *robot, char *err, size_t err_size)
{
    const PlnImpactContact *c = &s->contact;
    PlnAtomicFile f;
    PlnJson w;
    PlnStatus st = pln_atomic_open(&f, path, err, err_size);
    if (st != PLN_OK) return st;
    pln_json_init(&w, f.fp, 3);
    pln_json_begin_object(&w);
    pln_json_kv_string(&w, "mechanism", name);
    pln_json_kv_string(&w, "solver", solver);
    pln_json_kv_int(&w, "unknowns", r->unknowns);
    if (robot != NULL) {
        pln_json_kv_string(&w, "scenario", robot->scenario);
        pln_json_kv_string(&w, "trajectory", robot->trajectory);
        pln_json_kv_number(&w, "time_s", robot->time);
        pln_json_kv_string(&w, "time_source", robot->time_source);
    }
    pln_json_key(&w, "contact");
    pln_json_begin_object(&w);
    pln_json_kv_string(&w, "body_a", body_name(s, c->body_a));
    pln_json_kv_string(&w, "body_b", body_name(s, c->body_b));
    vec(&w, "point", c->point);
    vec(&w, "normal", c->normal);
    vec(&w, "tangent_t", r->frame + 3);
    vec(&w, "tangent_r", r->frame + 6);
    pln_json_kv_number(&w, "restitution", c->restitution);
    pln_json_kv_number(&w, "friction", c->mu);
    pln_json_kv_number(&w, "restitution_used", r->approaching ? r->restitution_used : c->restitution);
    pln_json_kv_number(&w, "friction_used", r->approaching ? r->mu_used : c->mu);
    pln_json_kv_bool(&w, "energy_capped", r->energy_capped);
    pln_json_kv_bool(&w, "approaching", r->approaching);
    pln_json_kv_string(&w, "friction_case", !r->approaching ? "none" : r->sliding ? (c->mu > 0.0 ? "sliding" : "frictionless") : "sticking");
    vec(&w, "impulse", r->P);
    vec(&w, "impulse_ntr", r->P_ntr);
    vec(&w, "relative_velocity_before_ntr", r->u_before);
    vec(&w, "relative_velocity_after_ntr", r->u_after);
    pln_json_end_object(&w);
    pln_json_key(&w, "joints");
    pln_json_begin_array(&w);
    for (int j = 0; j < s->n_joints; ++j) {
        const PlnImpactJoint *jt = &s->joints[j];
        pln_json_begin_object(&w);
        pln_json_kv_string(&w, "name", jt->name);
        pln_json_kv_string(&w, "type", pln_impact_joint_type_name(jt->type));
        pln_json_kv_string(&w, "body_i", body_name(s, jt->body_i));
        pln_json_kv_string(&w, "body_j", body_name(s, jt->body_j));
        vec(&w, "impulse_force", r->joint_P + 3 * j);
        vec(&w, "impulse_torque", r->joint_T + 3 * j);
        pln_json_end_object(&w);
    }
    pln_json_end_array(&w);
    pln_json_key(&w, "bodies");
    pln_json_begin_array(&w);
    for (int k = 0; k < s->n_bodies; ++k) {
        pln_json_begin_object(&w);
        pln_json_kv_string(&w, "name", s->bodies[k].name);
        vec(&w, "velocity_before", s->bodies[k].v);
        vec(&w, "angular_velocity_before", s->bodies[k].w);
        vec(&w, "velocity_after", r->v + 3 * k);
        vec(&w, "angular_velocity_after", r->w + 3 * k);
        pln_json_end_object(&w);
    }
    pln_json_end_array(&w);
    if (robot != NULL) {
        pln_json_key(&w, "robot_joints");
        pln_json_begin_array(&w);
        for (int j = 0; j < robot->n_joints; ++j) {
            pln_json_begin_object(&w);
            pln_json_kv_string(&w, "name", robot->joint_names[j]);
            pln_json_kv_number(&w, "qd_before", robot->qd_before[j]);
            pln_json_kv_number(&w, "qd_after", robot->qd_after[j]);
            pln_json_end_object(&w);
        }
        pln_json_end_array(&w);
    }
    pln_json_kv_number(&w, "kinetic_energy_before_j", r->energy_before);
    pln_json_kv_number(&w, "kinetic_energy_after_j", r->energy_after);
    pln_json_end_object(&w);
    if (!pln_json_finish(&w)) {
        pln_atomic_abort(&f);
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "%s: not written: a non-finite number", path);
    }
    return pln_atomic_commit(&f, err, err_size);
}
