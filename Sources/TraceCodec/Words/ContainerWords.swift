// What a file that is an archive, not a trace, is called, and how to unpack it.
enum ContainerWords {
    static let gzip = ContainerKind.archive(name: "a gzip archive", unpack: "gunzip it first (gunzip -k FILE)")
    static let zip = ContainerKind.archive(name: "a zip archive", unpack: "unzip it first and give the trace inside")
    static let bzip2 = ContainerKind.archive(name: "a bzip2 archive", unpack: "bunzip2 it first (bunzip2 -k FILE)")
    static let xz = ContainerKind.archive(name: "an xz archive", unpack: "unxz it first (unxz -k FILE)")
    static let tar = ContainerKind.archive(name: "a tar archive", unpack: "unpack it first (tar -xf FILE) and give the trace inside")
    static let compressedTar = ContainerKind.archive(
        name: "a tar archive compressed with zstd (.tar.zst)", unpack: "unpack it first (tar --zstd -xf FILE, or zstd -dc FILE | tar -x) and give the trace inside")
}
