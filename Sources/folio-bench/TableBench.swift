import Foundation

func runTableBench(_ options: [String]) {
    FileHandle.standardError.write(Data("folio-bench: the table suite is not written yet\n".utf8))
    exit(1)
}
