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

// The last-block pattern of CUDA's threadFenceReduction sample, with __threadfence() (membar.gl, fence.sc.gpu) in
// every thread: each thread stores a partial, the CTA meets at a barrier, its thread 0 counts the CTA done with a
// fenced atomicInc, and the CTA that counts last sums every partial (thread t: the partials t, t + ntid, ...)
// into out[t]. Every fence.sc joins the Fence-SC order of the whole grid (ISA 8.9.4 item 1), which is what made
// the dynamic engine's vector clocks grow with the square of the thread count.
inline const char* kLastBlock = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry last_block(.param .u64 partial, .param .u64 count, .param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  .reg .pred %p<4>;
  .shared .u32 is_last;
  ld.param.u64 %rd1, [partial];
  ld.param.u64 %rd2, [count];
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %nctaid.x;
  mad.lo.u32 %r5, %r1, %r3, %r2;
  mul.wide.u32 %rd4, %r5, 4;
  add.u64 %rd5, %rd1, %rd4;
  st.global.u32 [%rd5], %r5;
  membar.gl;
  bar.sync 0;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra WAIT;
  membar.gl;
  atom.global.inc.u32 %r6, [%rd2], %r4;
  membar.gl;
  sub.u32 %r7, %r4, 1;
  setp.eq.u32 %p2, %r6, %r7;
  selp.u32 %r8, 1, 0, %p2;
  st.shared.u32 [is_last], %r8;
WAIT:
  bar.sync 0;
  ld.shared.u32 %r8, [is_last];
  setp.eq.u32 %p3, %r8, 0;
  @%p3 bra DONE;
  mul.lo.u32 %r9, %r3, %r4;
  mov.u32 %r10, 0;
  mov.u32 %r11, %r2;
SUM:
  mul.wide.u32 %rd6, %r11, 4;
  add.u64 %rd7, %rd1, %rd6;
  ld.global.u32 %r12, [%rd7];
  add.u32 %r10, %r10, %r12;
  add.u32 %r11, %r11, %r3;
  setp.lt.u32 %p1, %r11, %r9;
  @%p1 bra SUM;
  mul.wide.u32 %rd8, %r2, 4;
  add.u64 %rd9, %rd3, %rd8;
  st.global.u32 [%rd9], %r10;
DONE:
  ret;
}
)";

}  // namespace ptxcheck::bench
