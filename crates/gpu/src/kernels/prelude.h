/* The prelude: what OpenCL C and CUDA C spell differently, mapped to one set of names, so that
 * every kernel of this folder is written once for both. The host prepends it to the kernels'
 * text, after the defines of the build (WORDS, SIGMA, PROBLEM). */

#ifdef __OPENCL_VERSION__

typedef ulong u64;
typedef uint u32;
typedef uchar u8;
typedef char i8;

#define KERNEL __kernel void
#define GLOBAL __global
#define LOCAL __local
#define LOCAL_ARG __local
/* A kernel uses some of the steps: the others are no warning. */
#define DEVICE static inline __attribute__((unused))
#define GROUP_ID ((u32)get_group_id(0))
#define LOCAL_ID ((u32)get_local_id(0))
#define GROUP_SIZE ((u32)get_local_size(0))
#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
/* A barrier after which the group's writes to global memory are seen by all of it. */
#define BARRIER_GLOBAL() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#define POPCOUNT(x) ((u32)popcount(x))
#define COUNT_ONE(counter) atomic_inc(counter)

#else /* CUDA C, compiled by NVRTC */

typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned char u8;
typedef signed char i8;

#define KERNEL extern "C" __global__ void
#define GLOBAL
#define LOCAL __shared__
#define LOCAL_ARG
#define DEVICE __device__ __forceinline__
#define GROUP_ID ((u32)blockIdx.x)
#define LOCAL_ID ((u32)threadIdx.x)
#define GROUP_SIZE ((u32)blockDim.x)
#define BARRIER() __syncthreads()
#define BARRIER_GLOBAL() __syncthreads()
#define POPCOUNT(x) ((u32)__popcll(x))
#define COUNT_ONE(counter) atomicAdd((counter), 1u)

#endif

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define ALL_ONES (~(u64)0)
