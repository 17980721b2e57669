#include <stdlib.h>
#include <shmem.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
int main(int argc,char**argv){
  shmem_init(); int me=shmem_my_pe();
  long n=argc>1?atol(argv[1]):20000;
  for(int i=0;i<1000;i++) shmem_barrier_all();
  struct rusage a,b; getrusage(RUSAGE_SELF,&a); double t0=now();
  for(long i=0;i<n;i++) shmem_barrier_all();
  double t1=now(); getrusage(RUSAGE_SELF,&b);
  printf("PE %d: %.2f us/barrier, vol cs %.2f, invol cs %.2f per barrier, utime+stime %.2f us/barrier\n",me,(t1-t0)/n,
    (b.ru_nvcsw-a.ru_nvcsw)/(double)n,(b.ru_nivcsw-a.ru_nivcsw)/(double)n,
    ((b.ru_utime.tv_sec-a.ru_utime.tv_sec)*1e6+(b.ru_utime.tv_usec-a.ru_utime.tv_usec)+(b.ru_stime.tv_sec-a.ru_stime.tv_sec)*1e6+(b.ru_stime.tv_usec-a.ru_stime.tv_usec))/n);
  shmem_finalize(); return 0;}
