import Dispatch
import FolioLocking

/// Finds which declared properties a key path reads by evaluating it once on
/// probe objects, so composed key paths (`\Animal.classification?.order`,
/// `\Unit.race.name`, `\Animal.classification!.order`) resolve by what they
/// do, never by their printed form (whose getter tokens differ between debug
/// and release builds and between modules).
///
/// A probe is an instance of the entity's class whose `@Managed` getters
/// record the property read and hand back a probe of the target entity (a
/// to-one), an empty collection (a to-many) or a sample value (an
/// attribute). The key path is accepted only when its reads form one chain
/// and its result is exactly what the last read handed back, so a computed
/// property that transforms, combines or invents a value is refused.
final class KeyPathProbe {
    /// What a recorded read handed back.
    enum HandedOut {
        case object(ManagedObject)
        case value(StoreValue)
        case members
    }

    struct Read {
        let object: ManagedObject
        let property: PropertyDescription
        let handedOut: HandedOut
    }

    /// Probe objects need a context to be initialised with; this one stays
    /// empty (its schema has no entities) and is used only under its lock.
    private static let shared = LockedValue<ObjectContext>(makeContext())

    private let context: ObjectContext
    private var recording = false
    private(set) var reads: [Read] = []
    private var objects: [ManagedObject] = []

    private init(context: ObjectContext) { self.context = context }

    private static func makeContext() -> ObjectContext {
        do {
            let coordinator = try StoreCoordinator(schema: Schema([]), path: nil, busyTimeoutMilliseconds: 0)
            return ObjectContext(coordinator: coordinator, delivery: .caller)
        } catch {
            preconditionFailure("an empty in-memory store for key path probes could not be opened: \(error)")
        }
    }

    /// The chain of properties `keyPath` reads from `root`, or why it names no stored property.
    static func resolve(_ key: KeyPathKey, from root: EntityDescription) -> Result<[PropertyDescription], StoreError> {
        let keyPath = key.keyPath
        guard type(of: keyPath).rootType == root.objectType else {
            return .failure(.unknownKeyPath(entity: root.name, keyPath: "a key path of \(type(of: keyPath).rootType)"))
        }
        return shared.withLock { context in
            let keyPath = key.keyPath
            let probe = KeyPathProbe(context: context)
            // Probes refer to the recorder, which lists them and their reads: let go of both.
            defer { probe.objects.removeAll(); probe.reads.removeAll() }
            let start = probe.makeObject(root)
            probe.recording = true
            let result = (start as Any)[keyPath: keyPath]
            probe.recording = false
            return probe.chain(from: start, result: result, keyPath: keyPath, root: root)
        }
    }

    private func makeObject(_ entity: EntityDescription) -> ManagedObject {
        context.probeBeingMade = (entity, self)
        let object = entity.objectType.init(context: context)
        objects.append(object)
        return object
    }

    /// Called by a probe's `@Managed` getter: records the read and hands back a stand-in.
    func read<Value: ManagedValue>(_ p: PropertyDescription, on object: ManagedObject) -> Value {
        switch p.kind {
        case .attribute:
            // An optional with no stand-in reads as nil; `chain` then refuses, as it cannot check the result.
            guard let sample = Self.sample(for: p, as: Value.self) ?? (Value.self is any OptionalBox.Type ? .null : nil) else {
                preconditionFailure(
                    """
                    \(p.entity.name).\(p.name): no value of \(Value.self) could stand in for it while resolving a key path; \
                    give the attribute a defaultValue
                    """)
            }
            if recording { reads.append(Read(object: object, property: p, handedOut: .value(sample))) }
            return Value._decode(ManagedSlot(storage: .value(sample)), in: nil)
        case .toOne:
            let target = makeObject(p.target)
            if recording { reads.append(Read(object: object, property: p, handedOut: .object(target))) }
            guard let value = target as Any as? Value else {
                preconditionFailure("\(p.entity.name).\(p.name) is declared as a relationship to \(p.target.name), not \(Value.self)")
            }
            return value
        case .toMany:
            if recording { reads.append(Read(object: object, property: p, handedOut: .members)) }
            return Value._decode(ManagedSlot(storage: .many([])), in: nil)
        }
    }

    /// Checks that the reads form one chain ending in what the key path returned.
    private func chain(
        from start: ManagedObject, result: Any?, keyPath: AnyKeyPath,
        root: EntityDescription
    ) -> Result<[PropertyDescription], StoreError> {
        var current: ManagedObject? = start
        var chain: [PropertyDescription] = []
        var hops: [PropertyDescription] = []
        for read in reads {
            guard let expected = current, read.object === expected else {
                return .failure(refusal(keyPath, root, hops: hops))
            }
            chain.append(read.property)
            if case .object(let next) = read.handedOut { current = next; hops.append(read.property) } else { current = nil }
        }
        guard let last = reads.last else { return .failure(refusal(keyPath, root, hops: hops)) }
        if case .value(.null) = last.handedOut {
            let p = last.property
            return .failure(
                .unknownKeyPath(
                    entity: root.name,
                    keyPath: """
                        \(String(describing: keyPath)) cannot be checked: nothing stands in for \(p.entity.name).\(p.name) \
                        (give it a defaultValue), so it
                        """))
        }
        let value = result.flatMap(Self.unwrapped)
        let matches: Bool
        switch last.handedOut {
        case .object(let object): matches = (value as AnyObject?) === object
        case .value(let sample): matches = (value as? any AttributeValue)?.storeValue == sample
        case .members:
            if let slot = (value as? any ManagedValue)?._slot, case .many(let ids) = slot.storage {
                matches = ids.isEmpty
            } else {
                matches = false
            }
        }
        if matches { return .success(chain) }
        if case .object = last.handedOut { hops.removeLast() }
        return .failure(refusal(keyPath, root, hops: hops))
    }

    /// The error for a key path that is not a chain of stored properties,
    /// named in Swift terms: the stored hops by name, the rest by its type
    /// and the stored properties it read.
    private func refusal(_ keyPath: AnyKeyPath, _ root: EntityDescription, hops: [PropertyDescription]) -> StoreError {
        var name = String(describing: keyPath)
        if name.contains("<computed") {
            let valueType = Self.swiftName(type(of: keyPath).valueType)
            name = "\\" + ([root.name] + hops.map(\.name)).joined(separator: ".") + ".<computed \(valueType)>"
        }
        let others = reads.dropFirst(hops.count).map { "\($0.property.entity.name).\($0.property.name)" }
        let read = others.isEmpty ? " (it reads no stored property)" : " (it reads " + others.joined(separator: ", ") + ")"
        return .unknownKeyPath(entity: root.name, keyPath: name + read)
    }

    /// `Optional<String>` as `String?`.
    private static func swiftName(_ type: Any.Type) -> String {
        let text = String(describing: type)
        if text.hasPrefix("Optional<"), text.hasSuffix(">") { return String(text.dropFirst(9).dropLast()) + "?" }
        return text
    }

    /// The value inside any number of optionals, or nil.
    private static func unwrapped(_ value: Any) -> Any? {
        if let optional = value as? any OptionalBox { return optional.wrappedAny.flatMap(unwrapped) }
        return value
    }

    /// A value for `p` that decodes as `Value` and survives a round trip, so
    /// the result of the key path can be compared with it; distinctive first,
    /// so that a computed property that changes it is caught.
    static func sample<Value: ManagedValue>(for p: PropertyDescription, as _: Value.Type) -> StoreValue? {
        guard let type = (Value.self as? any OptionalBox.Type)?.wrappedType ?? Value.self as? any AttributeValue.Type else {
            return nil
        }
        if let codable = type as? any CodableAttributeValue.Type, let value = try? codable.init(from: SampleDecoder()) {
            return value.storeValue
        }
        let candidates: [StoreValue]
        switch p.storeType {
        case .text:
            candidates = [
                .text(" Folio Probe "), .text(""), .text("00000000-0000-0000-0000-000000000000"),
                .text("{}"), .text("[]"), .text("0"), .text("null"),
            ]
        case .integer: candidates = [.integer(-7), .integer(0), .integer(1)]
        case .real: candidates = [.real(-7.25), .real(0)]
        case .blob: candidates = [.blob(.init([0xF0, 0x0D])), .blob(.init())]
        }
        for candidate in candidates + (p.defaultValue.map { [$0] } ?? []) {
            if let value = try? type.init(storeValue: candidate) { return value.storeValue }
        }
        return nil
    }
}

/// Lets the probe see through optionals of any depth.
protocol OptionalBox {
    var wrappedAny: Any? { get }
    static var wrappedType: (any AttributeValue.Type)? { get }
}

extension Optional: OptionalBox {
    var wrappedAny: Any? { self.map { $0 as Any } }
    static var wrappedType: (any AttributeValue.Type)? { Wrapped.self as? any AttributeValue.Type }
}
