/* Uses the installed public API: start the runtime, build a cold field, measure its plaquette. */
#include <quarkflow.h>

#include <math.h>
#include <stdio.h>

int main(void)
{
    int dims[4] = {4, 4, 4, 4}, blocks[4] = {1, 1, 2, 2};
    qf_lattice lat;
    qf_field *u;
    qf_gauge_observables obs;
    if (qf_runtime_init(NULL, NULL, NULL) || qf_lattice_init(&lat, dims, NULL, blocks, 0, 1, 1) ||
        qf_field_create(&u, &lat, QF_FIELD_GAUGE, QF_DOUBLE, 0) || qf_gauge_start(u, QF_START_COLD, 1, 0.0) ||
        qf_gauge_measure(u, &obs)) {
        fprintf(stderr, "consumer: %s\n", qf_last_error());
        return 1;
    }
    qf_field_destroy(u);
    qf_runtime_shutdown();
    printf("consumer: cold plaquette %.15f\n", obs.plaquette);
    return fabs(obs.plaquette - 1.0) < 1e-14 ? 0 : 1;
}
