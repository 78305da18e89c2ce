// The qualifiers of the mbarrier operations, the cp.async family and tcgen05 (semantics/ir/mbarrier_form.hpp,
// async_copy_form.hpp, tcgen05_form.hpp), from the syntax blocks of ISA 9.0 9.7.13.15.9-17, 9.7.9.25 and 9.7.16
// transcribed here: every form of each block is accepted, and words outside it are refused with the reason.
#include "tests/unit/semantics/diagnostics.hpp"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

using namespace ptx::ir;

namespace {
std::vector<std::string> errors(const std::string& body, const std::string& target = "sm_90") {
  return testing::diagnostics_of(testing::kernel_module(".version 8.7\n.target " + target + "\n.address_size 64\n",
                                                        " .reg .pred %p<4>;\n .reg .b32 %r<9>;\n .reg .b64 %rd<4>;\n"
                                                        " .shared .align 8 .b64 bar;\n",
                                                        body))
      .errors;
}
}  // namespace

TEST_CASE("mbarrier: the forms of each operation's syntax block are accepted") {
  const std::vector<std::string> forms = {
      // 9.7.13.15.9-10: mbarrier.init{.shared{::cta}}.b64 [addr], count; mbarrier.inval{.shared{::cta}}.b64 [addr];
      "mbarrier.init.b64 [bar], 1;", "mbarrier.init.shared.b64 [bar], 1;", "mbarrier.init.shared::cta.b64 [bar], 1;",
      "mbarrier.inval.shared::cta.b64 [bar];",
      // 9.7.13.15.11-12: {.sem}{.scope}{.space}.b64, .sem = { .relaxed }, .scope = { .cta, .cluster }
      "mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [bar], 16;", "mbarrier.expect_tx.b64 [bar], 16;",
      "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [bar], 16;",
      // 9.7.13.15.13: .sem = { .release, .relaxed }; .noComplete{.release}{.cta}
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar];", "mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd1, [bar];",
      "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd1, [bar], 16;",
      "mbarrier.arrive.noComplete.release.cta.shared::cta.b64 %rd1, [bar], 1;",
      // 9.7.13.15.14
      "mbarrier.arrive_drop.relaxed.cluster.shared::cluster.b64 _, [bar];",
      // 9.7.13.15.16: .sem = { .acquire, .relaxed }
      "mbarrier.test_wait.acquire.cluster.shared::cta.b64 %p1, [bar], %rd1;",
      "mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 %p1, [bar], %r1;",
      // 9.7.13.15.17: mbarrier.pending_count.b64 count, state;
      "mbarrier.pending_count.b64 %r1, %rd1;",
  };
  for (const auto& f : forms) {
    CAPTURE(f);
    CHECK(errors(" " + f + "\n").empty());
  }
}

TEST_CASE("mbarrier: words outside an operation's block are errors with the reason") {
  const std::pair<const char*, const char*> bad[] = {
      {" mbarrier.init.shared::cta [bar], 1;\n", "mbarrier.init names one type, .b64 (ISA 9.7.13.15.9)"},
      {" mbarrier.inval.shared::cta.b32 [bar];\n", "mbarrier.inval names one type, .b64 (ISA 9.7.13.15.10)"},
      {" mbarrier.init.shared::cta.b64.relaxed [bar], 1;\n", "'.relaxed' is no memory-order qualifier of mbarrier.init (ISA 9.7.13.15.9)"},
      {" mbarrier.expect_tx.release.cta.shared::cta.b64 [bar], 16;\n", "'.release' is no memory-order qualifier of mbarrier.expect_tx (ISA 9.7.13.15.11)"},
      {" mbarrier.arrive.acquire.cta.shared::cta.b64 %rd1, [bar];\n", "'.acquire' is no memory-order qualifier of mbarrier.arrive (ISA 9.7.13.15.13-14)"},
      {" mbarrier.arrive.noComplete.release.cluster.shared::cta.b64 %rd1, [bar], 1;\n",
       "'.cluster' is no .scope of mbarrier.arrive.noComplete (ISA 9.7.13.15.13)"},
      {" mbarrier.try_wait.release.cta.shared::cta.b64 %p1, [bar], %rd1;\n", "'.release' is no memory-order qualifier of mbarrier.test_wait/try_wait (ISA 9.7.13.15.16)"},
      {" mbarrier.test_wait.shared::cluster.b64 %p1, [bar], %rd1;\n", "'.shared::cluster' is no state space of mbarrier.test_wait / try_wait (ISA 9.7.13.15.16)"},
      {" mbarrier.pending_count.shared.b64 %r1, %rd1;\n", "mbarrier.pending_count takes no state space (ISA 9.7.13.15.17)"},
      {" mbarrier.init.global.b64 [%rd1], 1;\n", "'.global' is no state space of mbarrier.init (ISA 9.7.13.15.9)"},
  };
  testing::expect_one_error_each([](const std::string& body) { return errors(body); }, bad);
}

TEST_CASE("cp.async family: each block's spaces, completion and types") {
  const std::vector<std::string> forms = {
      // 9.7.9.25.3.1-3
      "cp.async.ca.shared.global [bar], [%rd1], 4;", "cp.async.cg.shared::cta.global.L2::128B [bar], [%rd1], 16;",
      "cp.async.commit_group;", "cp.async.wait_group 0;", "cp.async.wait_all;",
      // 9.7.9.25.4.1's four blocks, 9.7.9.25.4.3-4
      "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [bar], [%rd1], 16, [bar];",
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [bar], [%rd1], 16, [bar], %rs1;",
      "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [bar], [bar], 16, [bar];",
      "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [bar], 16;",
      "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group.read 0;",
      // 9.7.13.15.15
      "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar];",
  };
  for (const auto& f : forms) {
    CAPTURE(f);
    CHECK(errors(" .reg .b16 %rs<2>;\n " + f + "\n", "sm_90a").empty());
  }
  const std::pair<const char*, const char*> bad[] = {
      {" cp.async.shared.global [bar], [%rd1], 4;\n", "not a form of cp: cp.async names one of .ca and .cg (ISA 9.7.9.25)"},
      {" cp.async.ca.global [bar], [%rd1], 4;\n", "not a form of cp: cp.async copies .shared{::cta}.global (ISA 9.7.9.25)"},
      {" cp.async.ca.shared.global.u32 [bar], [%rd1], 4;\n",
       "not a form of cp: this cp form takes no type (only cp.reduce.async.bulk and cp.async.mbarrier.arrive do) (ISA 9.7.9.25)"},
      {" cp.async.commit_group.shared;\n", "not a form of cp: the group controls take no state space (ISA 9.7.9.25)"},
      {" cp.async.bulk.shared::cta.global [bar], [%rd1], 16, [bar];\n",
       "not a form of cp: cp.async.bulk names one completion mechanism, .mbarrier::complete_tx::bytes or .bulk_group (ISA 9.7.9.25)"},
      {" cp.async.bulk.global.mbarrier::complete_tx::bytes [bar], [%rd1], 16, [bar];\n",
       "not a form of cp: cp.async.bulk names a destination and a source state space (ISA 9.7.9.25)"},
      {" cp.async.bulk.shared::cta.shared::cluster.mbarrier::complete_tx::bytes [bar], [bar], 16, [bar];\n",
       "not a form of cp: .shared::cta.shared::cluster is no destination and source of cp.async.bulk (ISA 9.7.9.25)"},
      {" cp.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes [%rd1], [bar], 16, [bar];\n",
       "not a form of cp: a copy to .global completes through .bulk_group (ISA 9.7.9.25)"},
      {" cp.async.mbarrier.arrive.shared::cta [bar];\n", "not a form of cp: cp.async.mbarrier.arrive names one type, .b64 (ISA 9.7.9.25)"},
  };
  testing::expect_one_error_each([](const std::string& body) { return errors(body, "sm_90a"); }, bad);
}

TEST_CASE("tcgen05: what each operation's block requires") {
  const std::vector<std::string> forms = {
      // 9.7.16.7.1
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [bar], 32;", "tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r1, 32;",
      "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
      // 9.7.16.8.3-5
      "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1, %r2}, [%r3];", "tcgen05.ld.sync.aligned.16x128b.x1.pack::16b.b32 {%r1, %r2}, [%r3];",
      "tcgen05.st.sync.aligned.16x64b.x1.b32 [%r3], {%r1};", "tcgen05.wait::ld.sync.aligned;", "tcgen05.wait::st.sync.aligned;",
      // 9.7.16.9.2-3
      "tcgen05.cp.cta_group::1.128x256b [%r1], %rd1;", "tcgen05.cp.cta_group::2.128x128b.b8x16.b6x16_p32 [%r1], %rd1;",
      "tcgen05.shift.cta_group::1.down [%r1];",
      // 9.7.16.10.9.1, 9.7.16.11.1, 9.7.16.12.1
      "tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;", "tcgen05.fence::before_thread_sync;",
      "tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%rd1];",
  };
  for (const auto& f : forms) {
    CAPTURE(f);
    CHECK(errors(" " + f + "\n", "sm_100a").empty());
  }
  const std::pair<const char*, const char*> bad[] = {
      {" tcgen05.alloc.sync.aligned.shared::cta.b32 [bar], 32;\n", "not a form of tcgen05: tcgen05.alloc names one .cta_group (ISA 9.7.16.7.1)"},
      {" tcgen05.dealloc.cta_group::1.sync.b32 %r1, 32;\n", "not a form of tcgen05: tcgen05.dealloc needs .sync and .aligned (ISA 9.7.16.7.1)"},
      {" tcgen05.alloc.cta_group::1.sync.aligned.shared::cta [bar], 32;\n", "not a form of tcgen05: tcgen05.alloc names one type (ISA 9.7.16.7.1)"},
      {" tcgen05.ld.sync.aligned.32x32b.b32 {%r1}, [%r3];\n", "not a form of tcgen05: tcgen05.ld names one .num (.x1 ... .x128) (ISA 9.7.16.8.3)"},
      {" tcgen05.st.sync.aligned.x1.b32 [%r3], {%r1};\n", "not a form of tcgen05: tcgen05.st names one shape (ISA 9.7.16.8.4)"},
      {" tcgen05.cp.cta_group::1.128x256b.sync [%r1], %rd1;\n", "not a form of tcgen05: tcgen05.cp takes no .sync or .aligned (ISA 9.7.16.9.2)"},
      {" tcgen05.shift.cta_group::1 [%r1];\n", "not a form of tcgen05: tcgen05.shift names .down (ISA 9.7.16.9.3)"},
      {" tcgen05.mma.cta_group::1 [%r1], %rd1, %rd2, %r2, %p1;\n", "not a form of tcgen05: tcgen05.mma names one .kind (ISA 9.7.16.10.9)"},
      {" tcgen05.commit.cta_group::1.b64 [%rd1];\n", "not a form of tcgen05: tcgen05.commit names .mbarrier::arrive::one (ISA 9.7.16.12.1)"},
      {" tcgen05.fence::after_thread_sync.f32;\n", "not a form of tcgen05: tcgen05.fence takes no type (ISA 9.7.16.11.1)"},
  };
  testing::expect_one_error_each([](const std::string& body) { return errors(body, "sm_100a"); }, bad);
}

TEST_CASE("clusterlaunchcontrol: the forms of 9.7.13.17-18") {
  const std::vector<std::string> forms = {
      "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [bar], [bar];",
      "clusterlaunchcontrol.try_cancel.async.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [%rd1], [%rd2];",
      "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p1, %q1;",
      "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%r1, %r2, %r3, _}, %q1;",
      "clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 %r1, %q1;",
  };
  for (const auto& f : forms) {
    CAPTURE(f);
    CHECK(errors(" .reg .b128 %q<2>;\n " + f + "\n", "sm_100a").empty());
  }
  const std::pair<const char*, const char*> bad[] = {
      {" clusterlaunchcontrol.try_cancel.shared::cta.mbarrier::complete_tx::bytes.b128 [bar], [bar];\n",
       "not a form of clusterlaunchcontrol: try_cancel is written .try_cancel.async (ISA 9.7.13.17)"},
      {" clusterlaunchcontrol.try_cancel.async.shared::cta.b128 [bar], [bar];\n",
       "not a form of clusterlaunchcontrol: try_cancel names its completion mechanism, .mbarrier::complete_tx::bytes (ISA 9.7.13.17)"},
      {" clusterlaunchcontrol.query_cancel.is_canceled.b128 %p1, %q1;\n",
       "not a form of clusterlaunchcontrol: query_cancel.is_canceled is written .is_canceled.pred.b128 (ISA 9.7.13.18)"},
      {" clusterlaunchcontrol.query_cancel.b32.b128 %r1, %q1;\n",
       "not a form of clusterlaunchcontrol: query_cancel names one of .is_canceled, .get_first_ctaid and .get_first_ctaid::x/y/z (ISA 9.7.13.18)"},
  };
  testing::expect_one_error_each([](const std::string& body) { return errors(" .reg .b128 %q<2>;\n" + body, "sm_100a"); }, bad);
}
