// A shared-memory barrier's address in the shared window.
__device__ __forceinline__ unsigned int kute_bar(const unsigned long long* b) {
  return (unsigned int)__cvta_generic_to_shared(b);
}
// wait until the barrier's phase of this parity has completed
__device__ __forceinline__ void kute_wait(unsigned int bar, unsigned int phase) {
  asm volatile("{\n.reg .pred p;\nWAIT:\nmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n@!p bra WAIT;\n}" :: "r"(bar), "r"(phase) : "memory");
}
__device__ __forceinline__ void kute_arrive(unsigned int bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}
// arrive on the barrier and on the one at the same place in the other
// block of a cluster of two (the default semantics, .release.cta, as
// CUTLASS's cluster barriers have them: with .release.cluster the GEMM ran
// at half its speed)
__device__ __forceinline__ void kute_arrive_pair(unsigned int bar) {
  asm volatile("{\n.reg .b32 peer, remote;\nmov.u32 peer, %%cluster_ctarank;\nxor.b32 peer, peer, 1;\nmapa.shared::cluster.u32 remote, %0, peer;\nmbarrier.arrive.shared::cta.b64 _, [%0];\nmbarrier.arrive.shared::cluster.b64 _, [remote];\n}" :: "r"(bar) : "memory");
}
