// A TMA tensor map (CUtensorMap), passed to the kernel by value.
struct alignas(64) kute_tmap { unsigned long long v[16]; };
// The box at tensor-map coordinate (c0, c1), innermost first, into shared
// memory, counting its bytes on the mbarrier `bar`.
__device__ __forceinline__ void kute_tma_load_2d(void* smem, const kute_tmap* map, int c0, int c1, unsigned int bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"((unsigned int)__cvta_generic_to_shared(smem)), "l"(map), "r"(c0), "r"(c1), "r"(bar) : "memory");
}
// The box at shared address `smem` to tensor-map coordinate (c0, c1), in the
// thread's bulk group (TMA clips it at the tensor's edges).
__device__ __forceinline__ void kute_tma_store_2d(const kute_tmap* map, int c0, int c1, unsigned int smem) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
               :: "l"(map), "r"(c0), "r"(c1), "r"(smem) : "memory");
}
// The same with a third coordinate (a batch of matrices: a 3-D tensor map).
__device__ __forceinline__ void kute_tma_load_3d(void* smem, const kute_tmap* map, int c0, int c1, int c2, unsigned int bar) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
               :: "r"((unsigned int)__cvta_generic_to_shared(smem)), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(bar) : "memory");
}
__device__ __forceinline__ void kute_tma_store_3d(const kute_tmap* map, int c0, int c1, int c2, unsigned int smem) {
  asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];"
               :: "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(smem) : "memory");
}
// The same with four coordinates (attention's (dim, seq, head, batch)).
__device__ __forceinline__ void kute_tma_load_4d(void* smem, const kute_tmap* map, int c0, int c1, int c2, int c3, unsigned int bar) {
  asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
               :: "r"((unsigned int)__cvta_generic_to_shared(smem)), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(bar) : "memory");
}
// The box into the same shared address of each block of the cluster in
// `mask`, counting its bytes on each one's mbarrier at `bar`'s address.
__device__ __forceinline__ void kute_tma_load_2d_multicast(void* smem, const kute_tmap* map, int c0, int c1, unsigned int bar, unsigned short mask) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
               :: "r"((unsigned int)__cvta_generic_to_shared(smem)), "l"(map), "r"(c0), "r"(c1), "r"(bar), "h"(mask) : "memory");
}
__device__ __forceinline__ void kute_tma_load_3d_multicast(void* smem, const kute_tmap* map, int c0, int c1, int c2, unsigned int bar, unsigned short mask) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3, %4}], [%5], %6;"
               :: "r"((unsigned int)__cvta_generic_to_shared(smem)), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(bar), "h"(mask) : "memory");
}
