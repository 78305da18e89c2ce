// expect: race-free   (ISA 8.7: reductions of .cluster scope by threads of one cluster are morally strong, so they do not race)
#include "cluster_scope.cuh"
__global__ void __cluster_dims__(2, 1, 1) count(int* counter) { add_relaxed_cluster(counter, 1); }
