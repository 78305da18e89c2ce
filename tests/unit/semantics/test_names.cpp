// The names reports give (semantics/support/names.hpp): demangled kernels and variables, kernel arguments by their
// source names, element indices from byte offsets. Symbols are nvcc 13's for the CUDA declarations quoted.
#include "semantics/support/names.hpp"

#include <doctest/doctest.h>

using namespace ptxcheck::names;

TEST_CASE("names: a local static __shared__ array of a kernel is function::name") {
  // __global__ void block_sum(const int* in, int* out) { __shared__ int s[256]; ... }
  CHECK(demangle("_ZZ9block_sumPKiPiE1s") == "block_sum(int const*, int*)::s");
  CHECK(variable_cxx_name("_ZZ9block_sumPKiPiE1s") == "block_sum::s");
  // A second `s` in another block of the same kernel has a discriminator: the same C++ name.
  CHECK(variable_cxx_name("_ZZ2ksPiE1s_0") == "ks::s");
  // extern "C" __global__ void ck(int*) { __shared__ double d[8]; }
  CHECK(variable_cxx_name("_ZZ2ckE1d") == "ck::d");
  // A member function's static, const-qualified or not, in a namespace.
  CHECK(variable_cxx_name("_ZZN2ns1A1fEvE1x") == "ns::A::f::x");
  CHECK(variable_cxx_name("_ZZNK1A1fEvE1x") == "A::f::x");
}

TEST_CASE("names: a __shared__ array in a templated kernel keeps the template arguments") {
  // template <typename T> __global__ void tk(T* p, int n) { __shared__ T buf[64]; ... }  (tk<float>)
  CHECK(variable_cxx_name("_ZZ2tkIfEvPT_iE3buf") == "tk<float>::buf");
  CHECK(kernel_cxx_name("_Z2tkIfEvPT_i") == "tk<float>(float*, int)");
  CHECK(kernel_base_name("_Z2tkIfEvPT_i") == "tk");
  CHECK(kernel_base_name("_ZN2ns5scaleIfEEvPT_") == "scale");
  CHECK(kernel_title("_Z1bPi") == "b(int*) (PTX _Z1bPi)");
}

TEST_CASE("names: global __device__ variables and C names") {
  CHECK(variable_cxx_name("_ZN2ns7counterE") == "ns::counter");  // namespace ns { __device__ int counter[8]; }
  CHECK(variable_cxx_name("_ZN12_GLOBAL__N_11xE") == "(anonymous namespace)::x");
  CHECK(variable_title("_ZN2ns7counterE") == "ns::counter (_ZN2ns7counterE)");
  CHECK(variable_title("gval") == "gval");
  CHECK(variable_cxx_name("gval") == "gval");  // __device__ float gval; (C++ does not mangle a global's name)
  CHECK(demangle("ck") == "ck");
  CHECK(kernel_cxx_name("ck") == "ck");
  CHECK(kernel_title("ck") == "ck");
  CHECK(demangle("_Znot a symbol") == "_Znot a symbol");
  CHECK(kernel_cxx_parameter_types("_Z9block_sumPKiPi") == std::vector<std::string>{"int const*", "int*"});
}

TEST_CASE("names: element index from the byte offset and the element type") {
  CHECK(element_text(64, cxx_type_bytes("int"), true) == "[16]");
  CHECK(element_text(64, cxx_type_bytes("float"), true) == "[16]");
  CHECK(element_text(64, cxx_type_bytes("double"), true) == "[8]");
  CHECK(element_text(66, 4, true) == "[16], byte 2");
  CHECK(element_text(-4, 4, true) == "[-1]");
  CHECK(element_text(-2, 4, true) == "[-1], byte 2");
  CHECK(element_text(12, 0, true) == " byte 12");  // a struct's bytes: no element size
  CHECK(element_text(0, 4, false) == "");          // a scalar variable
  CHECK(element_text(0, 4, true) == "[0]");
  CHECK(cxx_type_bytes("unsigned long long const") == 8);
  CHECK(cxx_type_bytes("float4") == 16);
  CHECK(cxx_type_bytes("__half") == 2);
  CHECK(cxx_type_bytes("Particle") == 0);
  CHECK(pointee_type("int const*") == "int");
  CHECK(pointee_type("float* const") == "float");
  CHECK(pointee_type("int") == "");
  CHECK(variable_cxx_name("_ZZ9block_sumPKiPiE1s") + element_text(64, 4, true) + " (" + ptx_address("_ZZ9block_sumPKiPiE1s", 64) + ")" ==
        "block_sum::s[16] (_ZZ9block_sumPKiPiE1s+64)");
}

TEST_CASE("names: kernel arguments with and without their source names") {
  CHECK(argument_name(2, "out") == "argument 2 (out)");
  CHECK(argument_name(2, "") == "argument 2");
  const char* cu =
      "// __global__ void block_sum(int* wrong);\n"
      "__device__ int block_sum_helper(int x) { return x; }\n"
      "void block_sum(int a, int b, int c);  /* a host function of the same name */\n"
      "__global__ void __launch_bounds__(256) block_sum(const int* __restrict__ in,\n"
      "                                                 int* out /* sums */) {\n"
      "  block_sum_helper(0);\n"
      "}\n"
      "template <typename T> __global__ void tk(T* p, int n = 4, float v[3] = nullptr) {}\n"
      "template __global__ void tk<float>(float*, int, float*);\n"
      "__global__ void unnamed(int*, int) {}\n"
      "__global__ void none(void) {}\n";
  CHECK(cuda_parameter_names(cu, "block_sum", 2) == std::vector<std::string>{"in", "out"});
  CHECK(cuda_parameter_names(cu, "block_sum", 3).empty());  // the host function is no kernel
  CHECK(cuda_parameter_names(cu, "tk", 3) == std::vector<std::string>{"p", "n", "v"});
  CHECK(cuda_parameter_names(cu, "unnamed", 2).empty());
  CHECK(cuda_parameter_names(cu, "none", 0).empty());
  CHECK(cuda_parameter_names(cu, "missing", 1).empty());
}
