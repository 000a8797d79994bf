/* The codelet table the codelet layer registers (codelet_table.h), and the trace colours read from it. */
#include "codelet_table.h"
#include "quarkflow/qf_runtime.h"

#include <string.h>

static const qf_codelet_entry *table;
static int table_size;
static struct starpu_codelet *field_init_cl;

void qf_codelet_table_register(const qf_codelet_entry *t, int n, struct starpu_codelet *field_init)
{
    table = t;
    table_size = n;
    field_init_cl = field_init;
    for (int c = 0; c < n; c++) t[c].cl->color = t[c].colour;
}

static void (*hook_start)(void), (*hook_stop)(void);

void qf_codelet_hooks_register(void (*start)(void), void (*stop)(void))
{
    hook_start = start;
    hook_stop = stop;
}
void qf_codelet_hooks_start(void)
{
    if (hook_start) hook_start();
}
void qf_codelet_hooks_stop(void)
{
    if (hook_stop) hook_stop();
}

int qf_codelet_count(void) { return table_size; }
struct starpu_codelet *qf_codelet_field_init(void) { return field_init_cl; }
const qf_codelet_entry *qf_codelet_at(int c) { return &table[c]; }

int qf_trace_colour(const char *model, unsigned *rgb)
{
    for (int c = 0; c < table_size; c++) {
        const struct starpu_codelet *cl = table[c].cl;
        if (cl->model && cl->model->symbol && !strcmp(cl->model->symbol, model)) {
            *rgb = table[c].colour;
            return 1;
        }
    }
    return 0;
}
