#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>
#include <time.h>
#include <stdatomic.h>
#include <sys/wait.h>
typedef struct { _Atomic long v; char pad[56]; } cell;
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
#define W(cond) while(!(cond)) sched_yield()
int main(int argc,char**argv){int n=4, pin=atoi(argv[1]), algo=atoi(argv[2]), coll=atoi(argv[3]); long N=50000;
 cell* c=mmap(0,64*256,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_ANONYMOUS,-1,0);
 double* res=mmap(0,4096,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_ANONYMOUS,-1,0);
 int me=0; for(int i=1;i<n;i++){ if(fork()==0){me=i;break;} }
 if(pin){cpu_set_t s;CPU_ZERO(&s);CPU_SET(pin==1? me%2 : me/2,&s);sched_setaffinity(0,sizeof s,&s);}
 double tc=0, tb=0;
 for(long e=1;e<=N+1000;e++){
  double t0=now();
  if(coll==1){ // broadcast from 0: 0 stores to each mailbox
    if(me==0) for(int k=1;k<n;k++) atomic_store(&c[32+k].v,e); else W(atomic_load(&c[32+me].v)>=e);
  } else if(coll==2){ // all-exchange: store to each peer's mailbox slot, wait for all
    for(int k=0;k<n;k++) if(k!=me) atomic_store(&c[64+k*8+me].v,e);
    for(int k=0;k<n;k++) if(k!=me) W(atomic_load(&c[64+me*8+k].v)>=e);
  }
  double t1=now();
  if(algo==0){ if(me==0){ for(int k=1;k<n;k++) W(atomic_load(&c[k].v)>=e); for(int k=1;k<n;k++) atomic_store(&c[16+k].v,e);} 
    else { atomic_store(&c[me].v,e); W(atomic_load(&c[16+me].v)>=e); } }
  else { long a=atomic_fetch_add(&c[10].v,1)+1; if(a==e*n) atomic_store(&c[11].v,e); else W(atomic_load(&c[11].v)>=e); }
  double t2=now(); if(e>1000){tc+=t1-t0; tb+=t2-t1;}
 }
 res[me]=tc/N/1000; res[8+me]=tb/N/1000;
 if(me==0){for(int i=1;i<n;i++)wait(0); double a=0,b=0; for(int i=0;i<n;i++){a+=res[i];b+=res[8+i];} printf("pin %d barrier %s coll %d: coll %.3f us, barrier %.3f us\n",pin,algo?"counter":"tree",coll,a/n,b/n);} return 0;}
