/* pln_simout.c — what `hrpplan simulate` prints and writes: the summary, sim.json and
 * sim.svg (pln_sim.h; schema in docs/FILE_FORMATS.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pln_atomic.h"
#include "base/pln_json.h"
#include "base/pln_svg.h"
#include "base/pln_tolerance.h"
#include "output/pln_sim.h"

static const char *joint_name(const PlnProblem *p, int j)
{
    return j >= 0 && j < p->robot->n_joints ? p->robot->joints[j].name : "-";
}

void pln_sim_print_line(const PlnProblem *p, const PlnSimResult *res, FILE *out)
{
    (void)p;
    if (res->fell) {
        fprintf(out, "simulation: FELL at %.2f s%s (waist dropped %.3f m, tilted %.1f deg)\n",
                res->fell_t, res->diverged ? " (the physics diverged)" : "",
                res->waist_drop_max_m, res->waist_tilt_max_deg);
        return;
    }
    fprintf(out, "simulation: %s", res->ok ? "stands and tracks" : "FAILED");
    if (!res->ok) {
        const char *why[5];
        int n = 0;
        if (res->slipped) why[n++] = "a foot slipped";
        if (res->lifted) why[n++] = "a foot lifted";
        if (res->tipped) why[n++] = "the feet rolled over an edge";
        if (res->lost_track) why[n++] = "a joint lost track";
        if (res->collided) why[n++] = "collision";
        fputs(" (", out);
        for (int i = 0; i < n; ++i) fprintf(out, "%s%s", i > 0 ? ", " : "", why[i]);
        fputs(")", out);
    }
    if (res->floating) {
        fprintf(out, "; slip %.2f mm, lift %.2f mm", res->slip_max_mm, res->lift_max_mm);
        if (isfinite(res->cop_zmp_rms_m)) {
            fprintf(out, ", CoP-ZMP rms %.4f m (max %.4f m)", res->cop_zmp_rms_m, res->cop_zmp_max_m);
        }
    } else {
        fprintf(out, "; base welded (no soles)");
    }
    fprintf(out, ", tracking %.4f rad, %d contact pair(s)\n", res->track_max_rad,
            res->n_contacts);
}

void pln_sim_print(const PlnProblem *p, const PlnSimResult *res, FILE *out)
{
    fprintf(out, "simulated %.2f s in MuJoCo %s (%ld steps, %.2f s of wall time)\n",
            res->sim_time_s, pln_sim_engine_version(), res->steps, res->wall_time_s);
    if (res->floating) {
        fprintf(out, "waist: dropped at most %.4f m, tilted at most %.2f deg\n",
                res->waist_drop_max_m, res->waist_tilt_max_deg);
        fprintf(out, "feet: slip at most %.3f mm (%s), lift at most %.3f mm (%s)\n",
                res->slip_max_mm, res->slip_link >= 0 ? p->robot->links[res->slip_link].name : "-",
                res->lift_max_mm, res->lift_link >= 0 ? p->robot->links[res->lift_link].name : "-");
        if (res->tipped) {
            fprintf(out, "feet rolled: the centre of pressure reached the edge of the support "
                         "polygon near %.2f s\n", res->cop_margin_t);
        }
        if (isfinite(res->cop_margin_min_m)) {
            fprintf(out, "centre of pressure: at least %.4f m inside the support polygon (near "
                         "%.2f s); against the planned ZMP: rms %.4f m, max %.4f m\n",
                    res->cop_margin_min_m, res->cop_margin_t, res->cop_zmp_rms_m,
                    res->cop_zmp_max_m);
        }
        if (res->cop_missing_steps > 0) {
            fprintf(out, "feet off the floor: %ld step(s) of the motion had no sole force\n",
                    res->cop_missing_steps);
        }
    }
    fprintf(out, "tracking: at most %.4f rad (%s)\n", res->track_max_rad,
            joint_name(p, res->track_joint));
    if (isfinite(res->torque_ratio_max)) {
        fprintf(out, "torque: at most %.0f%% of the limit asked (%s), %ld step(s) clamped\n",
                100.0 * res->torque_ratio_max, joint_name(p, res->torque_joint),
                res->clamped_steps);
    }
    fprintf(out, "actuator energy: %.1f J\n", res->energy_j);
    for (int i = 0; i < res->n_contacts; ++i) {
        const PlnSimContact *c = &res->contacts[i];
        fprintf(out, "contact: %s - %s from %.3f s, %ld step(s), %.4f m deep at most\n", c->a,
                c->b, c->first_t, c->steps, c->depth_max);
    }
    if (res->contacts_dropped > 0) {
        fprintf(out, "contact: %ld more step(s) with further pairs not listed\n",
                res->contacts_dropped);
    }
    if (res->note[0] != '\0') fprintf(out, "note: %s\n", res->note);
    pln_sim_print_line(p, res, out);
}

static void kv_num_or_null(PlnJson *w, const char *key, double x)
{
    pln_json_key(w, key);
    if (isfinite(x)) {
        pln_json_number(w, x);
    } else {
        pln_json_null(w);
    }
}

PlnStatus pln_sim_write_json(const char *path, const PlnProblem *p, const PlnSimOptions *opt,
                             const char *trajectory, const PlnSimResult *res, char *err,
                             size_t err_size)
{
    PlnAtomicFile f;
    PlnJson w;
    PlnStatus st = pln_atomic_open(&f, path, err, err_size);
    if (st != PLN_OK) return st;
    pln_json_init(&w, f.fp, 3);
    pln_json_begin_object(&w);
    pln_json_kv_string(&w, "schema", "hrpplan-sim/1");
    pln_json_kv_string(&w, "scenario", p->scenario->path);
    pln_json_kv_string(&w, "trajectory", trajectory != NULL ? trajectory : "");
    pln_json_kv_string(&w, "engine", pln_sim_engine_version());
    pln_json_kv_bool(&w, "ok", res->ok);
    pln_json_kv_bool(&w, "floating_base", res->floating);
    pln_json_kv_bool(&w, "fell", res->fell);
    kv_num_or_null(&w, "fell_time_s", res->fell_t);
    pln_json_kv_bool(&w, "diverged", res->diverged);
    pln_json_kv_bool(&w, "slipped", res->slipped);
    pln_json_kv_bool(&w, "lifted", res->lifted);
    pln_json_kv_bool(&w, "tipped", res->tipped);
    pln_json_kv_bool(&w, "lost_track", res->lost_track);
    pln_json_kv_bool(&w, "collided", res->collided);
    pln_json_kv_number(&w, "waist_drop_max_m", res->waist_drop_max_m);
    pln_json_kv_number(&w, "waist_tilt_max_deg", res->waist_tilt_max_deg);
    pln_json_kv_number(&w, "slip_max_mm", res->slip_max_mm);
    pln_json_kv_number(&w, "lift_max_mm", res->lift_max_mm);
    pln_json_kv_number(&w, "track_max_rad", res->track_max_rad);
    pln_json_kv_string(&w, "track_joint", joint_name(p, res->track_joint));
    pln_json_key(&w, "track_rad");
    pln_json_begin_object(&w);
    for (int j = 0; j < p->robot->n_joints; ++j) {
        pln_json_kv_number(&w, p->robot->joints[j].name, res->track_rad[j]);
    }
    pln_json_end_object(&w);
    kv_num_or_null(&w, "cop_zmp_rms_m", res->cop_zmp_rms_m);
    kv_num_or_null(&w, "cop_zmp_max_m", res->cop_zmp_max_m);
    kv_num_or_null(&w, "cop_margin_min_m", res->cop_margin_min_m);
    kv_num_or_null(&w, "cop_margin_time_s", res->cop_margin_t);
    pln_json_kv_int(&w, "cop_missing_steps", res->cop_missing_steps);
    kv_num_or_null(&w, "torque_ratio_max", res->torque_ratio_max);
    pln_json_kv_string(&w, "torque_joint", joint_name(p, res->torque_joint));
    pln_json_kv_int(&w, "clamped_steps", res->clamped_steps);
    pln_json_kv_number(&w, "energy_j", res->energy_j);
    pln_json_key(&w, "contacts");
    pln_json_begin_array(&w);
    for (int i = 0; i < res->n_contacts; ++i) {
        const PlnSimContact *c = &res->contacts[i];
        pln_json_begin_object(&w);
        pln_json_kv_string(&w, "a", c->a);
        pln_json_kv_string(&w, "b", c->b);
        pln_json_kv_number(&w, "first_time_s", c->first_t);
        pln_json_kv_int(&w, "steps", c->steps);
        pln_json_kv_number(&w, "depth_max_m", c->depth_max);
        pln_json_end_object(&w);
    }
    pln_json_end_array(&w);
    pln_json_kv_int(&w, "contacts_dropped", res->contacts_dropped);
    pln_json_kv_string(&w, "note", res->note);
    pln_json_key(&w, "options");
    pln_json_begin_object(&w);
    pln_json_kv_number(&w, "timestep_s", opt->timestep);
    pln_json_kv_number(&w, "settle_s", opt->settle_s);
    pln_json_kv_number(&w, "hold_s", opt->hold_s);
    pln_json_kv_number(&w, "speed", opt->speed);
    pln_json_kv_number(&w, "bandwidth_hz", opt->bandwidth_hz);
    pln_json_kv_bool(&w, "feedforward", opt->feedforward);
    pln_json_kv_number(&w, "armature_per_nm", PLN_SIM_ARMATURE_PER_NM);
    pln_json_end_object(&w);
    pln_json_kv_int(&w, "steps", res->steps);
    pln_json_kv_number(&w, "simulated_s", res->sim_time_s);
    pln_json_kv_number(&w, "wall_time_s", res->wall_time_s);
    pln_json_end_object(&w);
    if (!pln_json_finish(&w)) {
        pln_atomic_abort(&f);
        return pln_errorf(PLN_ERR_INTERNAL, err, err_size, "%s: not written: %d non-finite number(s)",
                          path, w.nonfinite);
    }
    return pln_atomic_commit(&f, err, err_size);
}

PlnStatus pln_sim_write_svg(const char *path, const PlnProblem *p, const PlnSimResult *res,
                            char *err, size_t err_size)
{
    PlnSeries sx[2], sy[2], sz[1];
    PlnPanel panels[3];
    PlnFigure fig;
    int n = res->n_series;
    (void)p;
    if (n < 1) {
        return pln_errorf(PLN_ERR_INVALID, err, err_size, "%s: not written: nothing was simulated",
                          path);
    }
    memset(sx, 0, sizeof sx);
    memset(sy, 0, sizeof sy);
    memset(sz, 0, sizeof sz);
    memset(panels, 0, sizeof panels);
    sx[0] = (PlnSeries){"planned ZMP", PLN_SERIES_LINE, n, res->t, res->zmp_x, 0, 1};
    sx[1] = (PlnSeries){"simulated centre of pressure", PLN_SERIES_LINE, n, res->t, res->cop_x, 1, 0};
    sy[0] = (PlnSeries){"planned ZMP", PLN_SERIES_LINE, n, res->t, res->zmp_y, 0, 1};
    sy[1] = (PlnSeries){"simulated centre of pressure", PLN_SERIES_LINE, n, res->t, res->cop_y, 1, 0};
    sz[0] = (PlnSeries){"waist height", PLN_SERIES_LINE, n, res->t, res->waist_z, 2, 0};
    panels[0] = (PlnPanel){"x of ZMP and CoP [m]", 0, sx, 2, NULL, 0};
    panels[1] = (PlnPanel){"y of ZMP and CoP [m]", 0, sy, 2, NULL, 0};
    panels[2] = (PlnPanel){"waist height [m]", res->fell, sz, 1, NULL, 0};
    memset(&fig, 0, sizeof fig);
    fig.title = res->fell ? "simulation in MuJoCo: the robot FELL" : "simulation in MuJoCo";
    fig.xlabel = "trajectory time [s]";
    fig.ylabel = "m";
    fig.columns = 1;
    fig.panel_width = 640;
    fig.panel_height = 180;
    fig.shared_y = 0;
    fig.panels = panels;
    fig.n_panels = res->floating ? 3 : 1;
    if (!res->floating) panels[0] = panels[2];
    return pln_svg_write(path, &fig, err, err_size);
}
