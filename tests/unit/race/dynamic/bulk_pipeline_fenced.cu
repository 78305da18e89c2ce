// expect: race-free   (ISA 9.7.13.15.16, 8.9.5: each stage is read after its full phase, overwritten after its empty phase)
#define FENCE_BEFORE_RELEASE
#include "bulk_pipeline.cuh"
