#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include <stdatomic.h>
#include <sys/mman.h>
#define NP 16
static char* mem;
static volatile int page = -1;
static atomic_int go;
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);}
static void* peer(void* x){pin(1);
 for(int p=0;p<NP;p++){ while(atomic_load(&go)!=p+1); atomic_long* a=(atomic_long*)(mem+p*4096); atomic_long* b=(atomic_long*)(mem+p*4096+128);
  for(long i=1;i<=100000;i++){while(atomic_load_explicit(a,memory_order_acquire)!=i);atomic_store_explicit(b,i,memory_order_release);} }
 return 0;}
int main(){pin(0);mem=mmap(0,NP*4096,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_ANONYMOUS,-1,0);for(int i=0;i<NP*4096;i++)mem[i]=0;
pthread_t t;pthread_create(&t,0,peer,0);struct timespec t0,t1;
for(int p=0;p<NP;p++){atomic_long* a=(atomic_long*)(mem+p*4096); atomic_long* b=(atomic_long*)(mem+p*4096+128);atomic_store(&go,p+1);
clock_gettime(CLOCK_MONOTONIC,&t0);
for(long i=1;i<=100000;i++){atomic_store_explicit(a,i,memory_order_release);while(atomic_load_explicit(b,memory_order_acquire)!=i);}
clock_gettime(CLOCK_MONOTONIC,&t1);printf("%.0f ",((t1.tv_sec-t0.tv_sec)*1e9+(t1.tv_nsec-t0.tv_nsec))/100000.0);}
pthread_join(t,0);printf("ns rtt per page\n");}
