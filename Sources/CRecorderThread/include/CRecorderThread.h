#ifndef CRECORDERTHREAD_H
#define CRECORDERTHREAD_H

// The calling thread's recorder object, read in a load or two (a C11 thread-local pointer): no library
// call, which the pthread key behind it (SystemLayer's `ThreadLocalObject`, which also releases the
// object when the thread exits) costs on every read. The recorder sets it beside the key, and clears
// it when the object goes (its `deinit`, on the exiting thread), so that it never points at a freed one.

/// The pointer this thread set, NULL until it sets one (and after it cleared it).
extern _Thread_local void *rtc_recorder_thread_object;

static inline void *rtc_recorder_thread_get(void) {
    return rtc_recorder_thread_object;
}

static inline void rtc_recorder_thread_set(void *object) {
    rtc_recorder_thread_object = object;
}

#endif
