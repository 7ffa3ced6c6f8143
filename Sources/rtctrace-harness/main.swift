print("rtctrace-harness")
