#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
int main(){cpu_set_t s;CPU_ZERO(&s);CPU_SET(0,&s);sched_setaffinity(0,sizeof s,&s);
 int n=200000; pid_t p=fork(); struct timespec a,b; clock_gettime(CLOCK_MONOTONIC,&a);
 for(int i=0;i<n;i++) sched_yield();
 clock_gettime(CLOCK_MONOTONIC,&b); if(p){wait(0);printf("%.3f us per yield (2 procs)\n",((b.tv_sec-a.tv_sec)*1e9+(b.tv_nsec-a.tv_nsec))/n/1e3);} return 0;}
