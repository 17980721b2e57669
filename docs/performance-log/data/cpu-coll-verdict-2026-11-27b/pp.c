#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include <stdatomic.h>
static _Alignas(128) atomic_long a;
static _Alignas(128) atomic_long b;
static void pin(int c){cpu_set_t s;CPU_ZERO(&s);CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);}
static void* peer(void* x){pin(1);for(long i=1;i<=2000000;i++){while(atomic_load_explicit(&a,memory_order_acquire)!=i);atomic_store_explicit(&b,i,memory_order_release);}return 0;}
int main(){pin(0);pthread_t t;pthread_create(&t,0,peer,0);struct timespec t0,t1;
for(int r=0;r<5;r++){long base=r*400000;clock_gettime(CLOCK_MONOTONIC,&t0);
for(long i=base+1;i<=base+400000;i++){atomic_store_explicit(&a,i,memory_order_release);while(atomic_load_explicit(&b,memory_order_acquire)!=i);}
clock_gettime(CLOCK_MONOTONIC,&t1);printf("%.0f ",((t1.tv_sec-t0.tv_sec)*1e9+(t1.tv_nsec-t0.tv_nsec))/400000.0);}
pthread_join(t,0);printf("ns rtt\n");}
