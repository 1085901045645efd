/* dst.h — the public contract of the distance library (libdistance.a).
 *
 * distance/ computes static and continuous distances between rigid shapes. It knows
 * nothing about robots, B-splines or optimisers: a moving shape is given by its
 * geometry and by polynomial motion over a time interval [t0, t1] with a rigorous
 * enclosure. Every kernel is pure: inputs and outputs are structs, the result carries a
 * status enum, and nothing is allocated or kept in global state during a query.
 * Lengths are metres, times seconds, angles radians. planner/ depends on distance/,
 * never the other way round. */
#ifndef DST_H
#define DST_H

#include "dst_tolerance.h"

/* Version of the library, the one place it is written: the Makefile reads these three
 * lines for the shared library's file name and soname (libhrpdistance.so.MAJOR) and for
 * hrpdistance.pc. MAJOR changes when the ABI does (a public struct or signature). */
#define DST_VERSION_MAJOR 0
#define DST_VERSION_MINOR 1
#define DST_VERSION_PATCH 0
#define DST_VERSION_STRING_(a, b, c) #a "." #b "." #c
#define DST_VERSION_STRING_X_(a, b, c) DST_VERSION_STRING_(a, b, c)
/* "MAJOR.MINOR.PATCH", e.g. "0.1.0" */
#define DST_VERSION_STRING \
    DST_VERSION_STRING_X_(DST_VERSION_MAJOR, DST_VERSION_MINOR, DST_VERSION_PATCH)

/* Outcome of a distance query. */
typedef enum DstStatus {
    DST_OK = 0,            /* query answered */
    DST_SEPARATED,         /* shapes apart: signed distance > 0 */
    DST_TOUCHING,          /* signed distance == 0 within tolerance */
    DST_PENETRATING,       /* shapes overlap: signed distance < 0 */
    DST_CERTIFIED,         /* continuous query: [lower, upper] certified, upper - lower <= eps */
    DST_NOT_CERTIFIED,     /* continuous query answered, but no certified bound (e.g. GSS) */
    DST_ITER_LIMIT,        /* iteration cap, not the tolerance, ended the search; bounds still valid */
    DST_INVALID_INPUT,     /* NaN/inf, negative radius, t1 < t0, ... : nothing computed */
    DST_FAILED,            /* numerical failure: nothing usable computed */
    DST_ABOVE_LIMIT        /* continuous query stopped once its certified lower bound reached the
                            * caller's limit; upper - lower may exceed eps */
} DstStatus;

/* Name of a status, a static string ("separated", "certified", ...); never NULL. */
const char *dst_status_string(DstStatus status);

/* Version string of the library as built, DST_VERSION_STRING of its headers, e.g.
 * "0.1.0"; a static string. */
const char *dst_version(void);

#endif /* DST_H */
