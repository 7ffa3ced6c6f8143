#include "CRecorderThread.h"

_Thread_local void *rtc_recorder_thread_object = 0;
