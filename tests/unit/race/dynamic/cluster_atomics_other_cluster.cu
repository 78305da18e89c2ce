// expect: race 3   (ISA 8.7: reductions of .cluster scope by threads of two clusters are not morally strong: the scopes do not include each other)
#include "cluster_scope.cuh"
__global__ void __cluster_dims__(2, 1, 1) count(int* counter) { add_relaxed_cluster(counter, 1); }
