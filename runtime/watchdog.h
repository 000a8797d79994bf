/* The stall watchdog (watchdog.c), internal to the runtime: configure before StarPU starts, install
 * after, release just before it stops. */
#ifndef QF_WATCHDOG_H
#define QF_WATCHDOG_H

/* seconds > 0: a stall of that long ends the process with a report; 0: no watchdog. */
void qf_watchdog_configure(double seconds);
void qf_watchdog_install(void);
/* Lets StarPU stop without waiting for its watchdog thread. */
void qf_watchdog_release(void);

#endif
