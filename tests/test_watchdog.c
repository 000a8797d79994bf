/* The stall watchdog: a task that can never run (its data is held by the host, which then waits for
 * it) must end the process within the watchdog's time with the stall report and status 1, not hang.
 * ctest runs this through expect_error.sh, which checks the status and the message. */
#include "quarkflow.h"

#include <starpu.h>
#include <stdio.h>

static void touch_cpu(void *buffers[], void *cl_arg)
{
    (void)cl_arg;
    *(double *)STARPU_VARIABLE_GET_PTR(buffers[0]) += 1.0;
}
static struct starpu_codelet touch = {.cpu_funcs = {touch_cpu}, .nbuffers = 1, .modes = {STARPU_RW}, .name = "touch"};

int main(void)
{
    qf_runtime_options o = qf_runtime_default_options();
    o.ncpu = 1;
    o.ncuda = 0;
    o.watchdog_s = 1.0;
    if (qf_runtime_init(&o, NULL, NULL)) {
        fprintf(stderr, "runtime: %s\n", qf_last_error());
        return 3; /* not the clean failure the test expects */
    }
    double value = 0.0;
    starpu_data_handle_t h;
    starpu_variable_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)&value, sizeof value);
    starpu_data_acquire(h, STARPU_RW); /* the host holds the data ... */
    starpu_task_insert(&touch, STARPU_RW, h, 0);
    starpu_task_wait_for_all(); /* ... and waits for a task that needs it: a deadlock */
    fprintf(stderr, "the wait returned: the task ran while its data was held\n");
    return 3;
}
