/* pln_watchdog.h — a command's wall-clock limit, and a clean end on a signal.
 *
 * A run that is interrupted must leave nothing behind, like a run that fails: no target
 * changes, no hidden temporary, no empty output directory it created (base/pln_atomic.h).
 * pln_watchdog_begin() installs handlers for SIGINT, SIGTERM and SIGHUP that remove the
 * temporaries and that directory and then end the process by the same signal, and, when
 * `seconds` > 0, a timer (CLOCK_MONOTONIC, SIGALRM) that does the same after that many
 * seconds, prints where the run was (pln_watchdog_phase) and exits with `exit_code`.
 * This is the limit of last resort for a run that no budget bounds: a pathological mesh
 * whose distance queries defeat the bounding-volume hierarchy, a certificate that
 * subdivides for hours. The handlers call only async-signal-safe functions (write,
 * unlink, rmdir, _exit, raise). pln_watchdog_end() disarms the timer and restores the
 * handlers that were there before, so a program (or a test) may run several commands.
 * One watchdog per process, driven from the main thread. */
#ifndef PLN_WATCHDOG_H
#define PLN_WATCHDOG_H

#include "base/pln_status.h"

/* command: "plan", "check", ... (static string, named in the message). seconds <= 0:
 * the signal handlers only. json != 0: on the timeout, also print the failure document
 * {"status": "failed", "exit_code", "reason"} on stdout (plan --json). */
PlnStatus pln_watchdog_begin(const char *command, double seconds, int exit_code, int json,
                             char *err, size_t err_size);

/* Re-arms the timer to fire `seconds` from now (> 0), e.g. once the scenario's optimiser
 * budget is known; the message names the limit `limit_s` (the whole run's). */
PlnStatus pln_watchdog_rearm(double seconds, double limit_s, char *err, size_t err_size);

/* What the run is doing now, for the timeout's message: a string that lives as long as
 * the process (a literal). */
void pln_watchdog_phase(const char *phase);

/* A directory the run created: removed at a timeout or signal when it is still empty. */
void pln_watchdog_created_dir(const char *dir);

void pln_watchdog_end(void);

#endif /* PLN_WATCHDOG_H */
