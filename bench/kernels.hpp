// PTX kernels shared by the benchmarks (bench_interp, bench_race_dynamic).
#pragma once

namespace ptxcheck::bench {

// A shared-memory tree reduction of 256 values per CTA with a barrier per step (64 x 256 threads in the
// benchmarks): the sum of the CTA's inputs goes to out[ctaid.x].
inline const char* kReduce = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry reduce(.param .u64 in, .param .u64 out)
{
  .shared .align 4 .u32 buf[256];
  .reg .u32 %r<10>; .reg .pred %p<3>; .reg .u64 %rd<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.u32 %r3, %r2, 256, %r1;
  ld.param.u64 %rd1, [in];
  mul.wide.u32 %rd2, %r3, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.u32 %r4, [%rd3];
  mov.u64 %rd4, buf;
  mul.wide.u32 %rd5, %r1, 4;
  add.u64 %rd6, %rd4, %rd5;
  st.shared.u32 [%rd6], %r4;
  bar.sync 0;
  mov.u32 %r5, 128;
STEP:
  setp.lt.u32 %p1, %r1, %r5;
  @!%p1 bra SKIP;
  add.u32 %r6, %r1, %r5;
  mul.wide.u32 %rd7, %r6, 4;
  add.u64 %rd7, %rd4, %rd7;
  ld.shared.u32 %r7, [%rd7];
  ld.shared.u32 %r8, [%rd6];
  add.u32 %r8, %r8, %r7;
  st.shared.u32 [%rd6], %r8;
SKIP:
  bar.sync 0;
  shr.u32 %r5, %r5, 1;
  setp.ne.u32 %p2, %r5, 0;
  @%p2 bra STEP;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.shared.u32 %r9, [buf];
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r2, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
DONE:
  ret;
}
)";

}  // namespace ptxcheck::bench
