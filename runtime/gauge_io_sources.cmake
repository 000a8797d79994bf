# Gauge-file I/O (qf_gauge_io.h): the front door, shared byte/checksum helpers, one module per format.
# Needs no StarPU, so the tests can also build these files on their own with sanitizers.
set(QF_GAUGE_IO_SOURCES
  runtime/gauge_io.c
  runtime/io_util.c
  runtime/gauge_nersc.c
  runtime/gauge_milc.c
  runtime/lime.c
  runtime/gauge_bridge.c
  runtime/gauge_ddalpha.c)
