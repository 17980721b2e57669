#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>
#include <time.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <linux/futex.h>
#include <sys/syscall.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
static void fwait(_Atomic int* a,int v){syscall(SYS_futex,a,FUTEX_WAIT,v,0,0,0);}
static void fwake(_Atomic int* a){syscall(SYS_futex,a,FUTEX_WAKE,1,0,0,0);}
int main(int argc,char**argv){int c0=atoi(argv[1]),c1=atoi(argv[2]);int N=100000;
 _Atomic int* f=mmap(0,4096,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_ANONYMOUS,-1,0);*f=0;
 pid_t p=fork(); cpu_set_t s;CPU_ZERO(&s);CPU_SET(p?c0:c1,&s);sched_setaffinity(0,sizeof s,&s);
 int me=p?0:1; double t0=now();
 for(int i=0;i<N;i++){ int want=2*i+me; int v; while((v=atomic_load(f))!=want) fwait(f,v); atomic_store(f,want+1); fwake(f);}
 double t=now()-t0; if(p){wait(0);printf("futex cpu %d-%d: %.3f us per handoff\n",c0,c1,t/N/2/1000);} return 0;}
