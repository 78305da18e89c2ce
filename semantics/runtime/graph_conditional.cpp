// See graph_conditional.hpp. The rules are the Runtime API's (cudaConditionalNodeParams, cudaGraphNodeTypeConditional,
// cudaGraphConditionalHandleCreate in driver_types.h / cuda_runtime_api.h) and the Programming Guide's
// "Conditional Graph Nodes": IF runs body 0 once when the value is nonzero (body 1, the else graph, when it is 0
// and there are two); WHILE checks the value before the first run and after each and runs body 0 while it is
// nonzero; SWITCH runs body n when the value is n < size, none otherwise.
#include "semantics/runtime/graph_conditional.hpp"

#include "semantics/runtime/runtime.hpp"

#include <algorithm>
#include <any>
#include <map>
#include <mutex>

namespace ptx::runtime {

namespace {
struct Handle {
  const Graph* graph = nullptr;
  std::uint32_t default_value = 0, value = 0;
  bool assign_default = false;
  bool in_a_node = false;  // a conditional node made with it (make_conditional_node; copies do not count)
};
struct Registry {
  std::mutex mutex;
  std::uint64_t next = 1;
  std::map<std::uint64_t, Handle> handles;
  std::map<const Graph*, const Graph*> parent_of;  // a body graph -> the graph its conditional node is in
};
Registry& registry() {
  static Registry r;
  return r;
}
ConditionalValues* running = nullptr;  // the launch under way's values (ConditionalLaunch), under registry().mutex

// The value the running launch has for `handle`; else the handle's own.
std::uint32_t* value_slot(std::uint64_t handle) {
  if (running)
    if (auto it = running->value.find(handle); it != running->value.end()) return &it->second;
  auto it = registry().handles.find(handle);
  return it == registry().handles.end() ? nullptr : &it->second.value;
}

std::uint32_t value_of(std::uint64_t handle) {
  std::lock_guard lock(registry().mutex);
  const std::uint32_t* v = value_slot(handle);
  return v ? *v : 0;
}

int run_body(const Graph& body) {
  std::vector<GraphNode> nodes;
  if (!run_order_copy(body, nodes)) return Runtime::instance().record(invalid_value);  // refused at instantiation
  return run_nodes(nodes);
}

int run_conditional(const ConditionalParams& p) {
  switch (p.kind) {
    case conditional_if:
      if (value_of(p.handle)) return run_body(*p.bodies[0]);
      return p.bodies.size() == 2 ? run_body(*p.bodies[1]) : success;
    case conditional_while:
      while (value_of(p.handle))  // as on a GPU, a body that never sets the value to 0 loops for ever
        if (int e = run_body(*p.bodies[0])) return e;
      return success;
    default: {
      const std::uint32_t v = value_of(p.handle);
      return v < p.bodies.size() ? run_body(*p.bodies[v]) : success;
    }
  }
}

void fill_node(ConditionalParams p, GraphNode& node) {
  static const char* names[] = {"IF", "WHILE", "SWITCH"};
  node.what = std::string("conditional node (") + names[p.kind] + ")";
  node.run = [p] { return run_conditional(p); };
  node.type = conditional_node;
  node.params = std::move(p);
}

// Whether `g` is `ancestor` or a body (at any depth) of a conditional node in it.
bool within(const Graph* g, const Graph* ancestor) {
  for (; g; g = registry().parent_of.count(g) ? registry().parent_of.at(g) : nullptr)
    if (g == ancestor) return true;
  return false;
}

int refuse(const std::string& why) {
  Runtime::instance().report(why);
  return Runtime::instance().record(invalid_value);
}

// The graphs a node holds: a conditional node's bodies, a child graph node's copy of the child.
std::vector<const Graph*> inner_graphs(const GraphNode& n) {
  std::vector<const Graph*> out;
  if (const auto* c = std::any_cast<ConditionalParams>(&n.params))
    for (const auto& b : c->bodies) out.push_back(b.get());
  if (const auto* child = std::any_cast<std::shared_ptr<const Graph>>(&n.params)) out.push_back(child->get());
  return out;
}
}  // namespace

std::uint64_t create_conditional_handle(const Graph& g, std::uint32_t default_value, bool assign_default) {
  std::lock_guard lock(registry().mutex);
  const std::uint64_t h = registry().next++;
  registry().handles[h] = {&g, default_value, 0, assign_default};
  return h;
}

bool set_conditional(std::uint64_t handle, std::uint32_t value) {
  std::lock_guard lock(registry().mutex);
  if (!registry().handles.count(handle)) return false;
  *value_slot(handle) = value;
  return true;
}

int make_conditional_node(const Graph& parent, std::uint64_t handle, int kind, unsigned size, GraphNode& node) {
  if (kind < conditional_if || kind > conditional_switch) return refuse("cudaGraphAddNode: conditional node type " + std::to_string(kind) + " is not IF, WHILE or SWITCH");
  // cudaConditionalNodeParams::size: "1 for cudaGraphCondTypeWhile, 1 or 2 for cudaGraphCondTypeIf, or any value
  // greater than zero for cudaGraphCondTypeSwitch".
  const bool size_ok = kind == conditional_while ? size == 1 : kind == conditional_if ? size == 1 || size == 2 : size > 0;
  if (!size_ok) return refuse("cudaGraphAddNode: a conditional node of this type cannot have size " + std::to_string(size));
  ConditionalParams p;
  {
    std::lock_guard lock(registry().mutex);
    auto it = registry().handles.find(handle);
    if (it == registry().handles.end()) return refuse("cudaGraphAddNode: conditional handle " + std::to_string(handle) + " was not created");
    if (!within(&parent, it->second.graph))
      return refuse("cudaGraphAddNode: conditional handle " + std::to_string(handle) + " belongs to another graph");
    // One node per handle: a second is cudaErrorInvalidValue on an H200 (measured, CUDA 13.0; the API reference
    // does not say).
    if (it->second.in_a_node) return refuse("cudaGraphAddNode: conditional handle " + std::to_string(handle) + " has a conditional node already");
    it->second.in_a_node = true;
    p.handle = handle;
    p.kind = kind;
    p.body_handles = std::make_shared<std::vector<Graph*>>();
    for (unsigned i = 0; i < size; ++i) {
      // (a body forgets its parent when it goes, so a later graph at its address is no one's body; deleted outside
      // the lock, as its own nodes' bodies go the same way)
      std::shared_ptr<Graph> body(new Graph(), [](Graph* g) {
        {
          std::lock_guard gone(registry().mutex);
          registry().parent_of.erase(g);
        }
        delete g;
      });
      registry().parent_of[body.get()] = &parent;
      p.body_handles->push_back(body.get());
      p.bodies.push_back(std::move(body));
    }
  }
  fill_node(std::move(p), node);
  return success;
}

GraphNode copy_node(const GraphNode& n) {
  GraphNode copy{n.what, n.run, n.type, {}, n.params, n.enabled};
  if (const auto* c = std::any_cast<ConditionalParams>(&n.params)) {
    ConditionalParams p{c->handle, c->kind, {}, std::make_shared<std::vector<Graph*>>()};
    for (const auto& b : c->bodies) {
      p.bodies.push_back(clone_graph(*b));
      p.body_handles->push_back(p.bodies.back().get());
    }
    fill_node(std::move(p), copy);
  }
  return copy;
}

bool has_conditional_nodes(const Graph& g) {
  return std::any_of(g.nodes.begin(), g.nodes.end(), [](const auto& n) { return n->type == conditional_node; });
}

std::vector<std::uint64_t> conditional_handles(const Graph& g) {
  std::vector<std::uint64_t> out;
  for (const auto& n : g.nodes) {
    if (const auto* c = std::any_cast<ConditionalParams>(&n->params)) out.push_back(c->handle);
    for (const Graph* inner : inner_graphs(*n)) {
      auto more = conditional_handles(*inner);
      out.insert(out.end(), more.begin(), more.end());
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::shared_ptr<ConditionalValues> make_conditional_values(const std::vector<std::uint64_t>& handles) {
  std::lock_guard lock(registry().mutex);
  auto values = std::make_shared<ConditionalValues>();
  for (std::uint64_t h : handles)
    if (registry().handles.count(h)) values->value[h] = 0;
  return values;
}

ConditionalLaunch::ConditionalLaunch(std::shared_ptr<ConditionalValues> values) : values_(std::move(values)) {
  std::lock_guard lock(registry().mutex);
  for (auto& [h, v] : values_->value)
    if (auto it = registry().handles.find(h); it != registry().handles.end() && it->second.assign_default) v = it->second.default_value;
  outer_ = running;  // (a graph launch node inside another launch)
  running = values_.get();
}

ConditionalLaunch::~ConditionalLaunch() {
  std::lock_guard lock(registry().mutex);
  running = outer_;
}

// cudaConditionalNodeParams::phGraph_out: "Allowed node types are kernel nodes, empty nodes, child graphs, memsets,
// memcopies, and conditionals. This applies recursively to child graphs and conditional bodies."
std::string conditional_body_problem(const Graph& g) {
  for (const auto& n : g.nodes) {
    const auto* c = std::any_cast<ConditionalParams>(&n->params);
    if (!c) continue;
    for (const auto& body : c->bodies) {
      std::vector<const GraphNode*> order;
      if (!topological_order(*body, order)) return "the dependencies in a conditional node's body form a cycle";
      std::vector<const Graph*> todo{body.get()};
      while (!todo.empty()) {
        const Graph* inner = todo.back();
        todo.pop_back();
        for (const auto& m : inner->nodes) {
          const int t = m->type;
          if (t != kernel_node && t != empty_node && t != child_graph_node && t != memset_node && t != memcpy_node && t != conditional_node)
            return "a conditional node's body holds a " + m->what + " (only kernel, empty, child graph, memset, memcpy and conditional nodes may be there)";
          for (const Graph* deeper : inner_graphs(*m)) todo.push_back(deeper);
        }
      }
      if (std::string why = conditional_body_problem(*body); !why.empty()) return why;
    }
  }
  return "";
}

}  // namespace ptx::runtime
