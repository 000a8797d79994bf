/* Gauge-field generation as task graphs. Start fields use counter-based random numbers (Philox)
 * keyed by seed, global site and link, so a field is bit-identical for every block grid, process
 * grid and CPU/GPU placement. */
#ifndef QF_GAUGE_H
#define QF_GAUGE_H

#include "qf_field.h"
#include "qf_gauge_io.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    QF_START_COLD = 0, /* unit links */
    QF_START_WEAK,     /* reunitarised 1 + eps G, G complex Gaussian (the QUDA benchmarks' weak field) */
    QF_START_HOT       /* Haar-random SU(3) links */
} qf_gauge_start_kind;

const char *qf_gauge_start_name(qf_gauge_start_kind k);
/* Parses cold, weak or hot. */
int qf_gauge_start_parse(const char *s, qf_gauge_start_kind *k);

/* Fills a gauge field with a start field: one task per block. eps is the weak-field noise. */
int qf_gauge_start(qf_field *gauge, qf_gauge_start_kind kind, uint64_t seed, double eps);

/* Loads a gauge file (qf_gauge_read_header tells its lattice first) into a double-precision gauge
 * field whose lattice has the file's dimensions: every process reads only its own part of the file,
 * all processes verify the whole file's checksums, closeness to SU(3) and link trace together and
 * fail alike, and the stored plaquette is checked against the task graph's measurement. *info is
 * the same on every process. */
int qf_gauge_load(qf_field *gauge, const char *path, qf_gauge_format format, qf_gauge_info *info);
/* Writes a gauge field as a NERSC or ILDG file (qf_gauge_write's options; NULL: 64-bit) from every
 * process's own part: the header's plaquette is the task graph's, and every process writes its
 * records into the same file, which must therefore lie on a file system all processes share. Every
 * process must call it; they all succeed or all fail. */
int qf_gauge_save(const qf_field *gauge, const char *path, qf_gauge_format format, const qf_gauge_write_options *opt);
/* The links of gauge (whole, any precision) compressed into out, a field of shape
 * qf_field_shape_compressed_gauge in its own precision: a task per block. The links must be in SU(3)
 * (what the Dirac kernels rebuild assumes; qf_gauge_info's max_unitarity_deviation says it of a file). */
int qf_gauge_compress(qf_field *out, const qf_field *gauge);
/* Quenched updates with the Wilson gauge action S = beta sum_P (1 - Re Tr U_P / 3). */
typedef struct {
    double beta;
    int or_steps;  /* overrelaxation passes after each heatbath pass */
    uint64_t seed;
} qf_update_params;

/* Submits `count` sweeps numbered first_sweep, first_sweep + 1, ...: each is a Cabibbo-Marinari
 * heatbath pass (Kennedy-Pendleton, three SU(2) subgroups) over every link (mu = x, y, z, t; even
 * sites, then odd) followed by or_steps overrelaxation passes, every updated link reunitarised. The
 * random numbers are keyed by seed, global site, link and sweep number, so the field is bit-identical
 * for every block grid, scheduler and CPU/GPU placement. Returns once the tasks are submitted. */
int qf_gauge_update(qf_field *gauge, const qf_update_params *p, int first_sweep, int count);

#ifdef __cplusplus
}
#endif
#endif
