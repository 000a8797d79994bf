/* The table of every quarkflow codelet, as the runtime sees it: the codelet layer registers its table
 * when the library loads (codelets/registry.c), and what must name or count all codelets reads it
 * here (the per-worker statistics, the stall watchdog, the trace colours), so that the runtime never
 * reaches up into the codelets. Internal to the library. */
#ifndef QF_CODELET_TABLE_H
#define QF_CODELET_TABLE_H

#include <starpu.h>

/* label is a short column heading for tables (the codelet's own name is cl->name); colour
 * (0xRRGGBB) is the codelet's colour in traces, one per kind of work. */
typedef struct {
    struct starpu_codelet *cl;
    const char *label;
    unsigned colour;
} qf_codelet_entry;

/* Called once, at load time, by the codelet layer; sets each codelet's trace colour. field_init is
 * the codelet that zero-fills a field block (vector handle), which scratch blocks take as their init
 * method (runtime/field.c). */
void qf_codelet_table_register(const qf_codelet_entry *table, int n, struct starpu_codelet *field_init);
/* That codelet (NULL before the codelet layer has loaded). */
struct starpu_codelet *qf_codelet_field_init(void);
/* What the codelet layer sets up once the workers run and tears down before they stop (its host-side
 * resources for them: data_publish's page-locked slot), registered with the table; either may be NULL. */
void qf_codelet_hooks_register(void (*start)(void), void (*stop)(void));
void qf_codelet_hooks_start(void);
void qf_codelet_hooks_stop(void);
/* The number of registered codelets, and entry c of the table. */
int qf_codelet_count(void);
const qf_codelet_entry *qf_codelet_at(int c);

#endif
