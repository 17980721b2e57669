#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static long ctr[8];
int main(int argc,char**argv){shmem_init();int me=shmem_my_pe(),np=shmem_n_pes();int n=argc>1?atoi(argv[1]):20000; int spins=argc>2?atoi(argv[2]):0;
 _Atomic long* c=(_Atomic long*)shmem_ptr(ctr,0); long target=0;
 shmem_barrier_all();
 struct rusage a,b; double t0=0;
 for(int i=0;i<n+1000;i++){ if(i==1000){getrusage(RUSAGE_SELF,&a);t0=now();}
   target+=np; atomic_fetch_add_explicit(c,1,memory_order_acq_rel);
   int k=0; while(atomic_load_explicit(c,memory_order_acquire)<target){ if(++k>spins){sched_yield();k=0;} } }
 double t1=now(); getrusage(RUSAGE_SELF,&b);
 printf("pe %d: %.3f us/barrier, invol %.2f switches/barrier\n",me,(t1-t0)/n,(double)(b.ru_nivcsw-a.ru_nivcsw)/n);
 shmem_barrier_all(); shmem_finalize();}
