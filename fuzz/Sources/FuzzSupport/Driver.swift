import CFuzzer

/// Runs libFuzzer over `body` with this process's arguments (`-max_total_time=60`, corpus folders,
/// or input files to replay) and returns its exit status.
public func runFuzzer(_ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, body)
}
