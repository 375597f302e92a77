import Foundation

func runStoreBench(_ options: [String]) {
    FileHandle.standardError.write(Data("folio-bench: the store suite is not written yet\n".utf8))
    exit(1)
}
