// expect: race 35 23   (ISA 8.9.5 proxy-preserved base causality order: a generic read, then an async-proxy write of it, need a proxy fence between)
#include "bulk_pipeline.cuh"
