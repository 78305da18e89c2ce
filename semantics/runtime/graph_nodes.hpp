// The nodes of a graph built node by node (api_graph_nodes.cpp): adding a node made elsewhere (memory nodes,
// api_graph_memory.cpp) to a graph.
#pragma once

#include "semantics/runtime/graph.hpp"

#include <cuda_runtime_api.h>

namespace ptx::runtime {

// Adds `node` to `graph` after `deps` (nodes of that graph, as CUDA requires); cudaErrorInvalidValue otherwise.
cudaError_t add_graph_node(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count, GraphNode node);

}  // namespace ptx::runtime
