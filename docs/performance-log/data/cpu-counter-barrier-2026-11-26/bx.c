#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
int main(int argc,char**argv){shmem_init();int me=shmem_my_pe();int n=argc>1?atoi(argv[1]):20000;
 for(int i=0;i<1000;i++)shmem_barrier_all();
 struct rusage a,b; getrusage(RUSAGE_SELF,&a); double t0=now();
 for(int i=0;i<n;i++)shmem_barrier_all();
 double t1=now(); getrusage(RUSAGE_SELF,&b);
 printf("pe %d: %.3f us/barrier, vol %.2f invol %.2f switches/barrier\n",me,(t1-t0)/n,(double)(b.ru_nvcsw-a.ru_nvcsw)/n,(double)(b.ru_nivcsw-a.ru_nivcsw)/n);
 shmem_finalize();}
