// A grid-wide counter bumped with atomicAdd_block: atom.cta's scope holds only the threads of one CTA,
// so increments from two CTAs are not morally strong and race (PTX ISA 8.6, 8.7.1). atomicAdd is fine.
// ptxcheck race examples/race/counter_block_scope.cu --blockDim=64 --gridDim=2
__global__ void count(int* counter) { atomicAdd_block(counter, 1); }
