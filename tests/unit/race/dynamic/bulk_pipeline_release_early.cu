// expect: race 35 23   (the consumer releases the stage before reading it: the next copy into it races with the read)
#define RELEASE_EARLY
#define FENCE_BEFORE_RELEASE
#include "bulk_pipeline.cuh"
