// expect: race-free   (atomics of .gpu scope to one location are morally strong: no data race)
__global__ void k(int* counter) { atomicAdd(counter, 1); }
