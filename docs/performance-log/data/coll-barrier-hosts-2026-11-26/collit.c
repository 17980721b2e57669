#include <stdlib.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static long ps[2][SHMEM_REDUCE_SYNC_SIZE > SHMEM_COLLECT_SYNC_SIZE ? SHMEM_REDUCE_SYNC_SIZE: SHMEM_COLLECT_SYNC_SIZE];
static long wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE+64];
int main(int argc,char**argv){
  int which=argc>1?atoi(argv[1]):0; long n=argc>2?atol(argv[2]):2000; int nel=argc>3?atoi(argv[3]):1;
  for(int s=0;s<2;s++) for(size_t i=0;i<sizeof ps[0]/sizeof(long);i++) ps[s][i]=SHMEM_SYNC_VALUE;
  shmem_init(); int me=shmem_my_pe(), np=shmem_n_pes();
  long* src=shmem_malloc(8*nel*np); long* dst=shmem_malloc(8*nel*np);
  double* t=malloc(sizeof(double)*n);
  shmem_barrier_all();
  for(long i=0;i<n;i++){ double t0=now();
    if(which==0) shmem_fcollect64(dst,src,nel,0,0,np,ps[i&1]);
    else if(which==1) shmem_long_sum_to_all(dst,src,nel,0,0,np,wrk,ps[i&1]);
    else if(which==2) shmem_broadcast64(dst,src,nel,0,0,0,np,ps[i&1]);
    else shmem_barrier_all();
    t[i]=now()-t0; shmem_barrier_all(); }
  double sum=0,mx=0; long big=0; int cnt[8]={0};
  for(long i=0;i<n;i++){sum+=t[i]; if(t[i]>mx)mx=t[i]; if(t[i]>100)big++; int b=t[i]<5?0:t[i]<10?1:t[i]<20?2:t[i]<50?3:t[i]<100?4:t[i]<1000?5:t[i]<10000?6:7; cnt[b]++;}
  qsort(t,n,sizeof(double),(int(*)(const void*,const void*))0==0? ({int f(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;} f;}):0);
  printf("PE %d: mean %.2f median %.2f p90 %.2f max %.1f | <5:%d <10:%d <20:%d <50:%d <100:%d <1ms:%d <10ms:%d more:%d\n",me,sum/n,t[n/2],t[n*9/10],mx,cnt[0],cnt[1],cnt[2],cnt[3],cnt[4],cnt[5],cnt[6],cnt[7]);
  shmem_finalize(); return 0;}
