import Foundation

func runRenderBench(_ options: [String]) {
    FileHandle.standardError.write(Data("folio-bench: the render suite is not written yet\n".utf8))
    exit(1)
}
