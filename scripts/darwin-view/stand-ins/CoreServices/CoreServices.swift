// The CoreServices module as the macOS view sees it: only the FSEvents declarations the executable
// uses (Sources/MockServer/FSEventsWakeups.swift), in the shape Swift imports them from the macOS
// SDK's CoreServices.framework/Frameworks/FSEvents.framework/Headers/FSEvents.h (© 2006-2014 Apple;
// the names below are the header's, each with its C declaration). CoreFoundation's types are
// Foundation's here: CFArray is toll-free bridged to NSArray on Darwin, so `NSArray(...) as CFArray`
// compiles there and here. Add a declaration only when the view needs it. Bodies exist only so
// test binaries link.
import Dispatch
import Foundation

/// CFBase.h `typedef const struct __CFAllocator * CFAllocatorRef;` (a class on Darwin; only nil is passed).
public final class CFAllocator {}
/// CFBase.h `typedef long CFIndex;`
public typealias CFIndex = Int
/// CFDate.h `typedef double CFTimeInterval;`
public typealias CFTimeInterval = Double
/// CFArray.h `typedef const struct __CFArray * CFArrayRef;` (toll-free bridged to NSArray).
public typealias CFArray = NSArray
/// CFBase.h `typedef const void * (*CFAllocatorRetainCallBack)(const void *info);`
public typealias CFAllocatorRetainCallBack = @convention(c) (UnsafeRawPointer?) -> UnsafeRawPointer?
/// CFBase.h `typedef void (*CFAllocatorReleaseCallBack)(const void *info);`
public typealias CFAllocatorReleaseCallBack = @convention(c) (UnsafeRawPointer?) -> Void
/// CFBase.h `typedef CFStringRef (*CFAllocatorCopyDescriptionCallBack)(const void *info);` (the string as an
/// opaque pointer here: Glibc has no CF type a C function may return)
public typealias CFAllocatorCopyDescriptionCallBack = @convention(c) (UnsafeRawPointer?) -> OpaquePointer?

/// `typedef UInt32 FSEventStreamCreateFlags;`
public typealias FSEventStreamCreateFlags = UInt32
/// `typedef UInt32 FSEventStreamEventFlags;`
public typealias FSEventStreamEventFlags = UInt32
/// `typedef UInt64 FSEventStreamEventId;`
public typealias FSEventStreamEventId = UInt64
/// `typedef struct __FSEventStream* FSEventStreamRef;` (an incomplete struct: OpaquePointer)
public typealias FSEventStreamRef = OpaquePointer
/// `typedef const struct __FSEventStream* ConstFSEventStreamRef;`
public typealias ConstFSEventStreamRef = OpaquePointer

/// The anonymous `enum { kFSEventStreamCreateFlag… }`: members of an anonymous enum import as Int.
public var kFSEventStreamCreateFlagNoDefer: Int { 0x0000_0002 }
public var kFSEventStreamCreateFlagWatchRoot: Int { 0x0000_0004 }
public var kFSEventStreamCreateFlagFileEvents: Int { 0x0000_0010 }
/// `enum { kFSEventStreamEventIdSinceNow = 0xFFFFFFFFFFFFFFFFULL };` (too large for Int: UInt64)
public var kFSEventStreamEventIdSinceNow: UInt64 { 0xFFFF_FFFF_FFFF_FFFF }

/// `struct FSEventStreamContext { CFIndex version; void * __nullable info; CFAllocatorRetainCallBack
/// __nullable retain; CFAllocatorReleaseCallBack __nullable release; CFAllocatorCopyDescriptionCallBack
/// __nullable copyDescription; };`
public struct FSEventStreamContext {
    public var version: CFIndex
    public var info: UnsafeMutableRawPointer?
    public var retain: CFAllocatorRetainCallBack?
    public var release: CFAllocatorReleaseCallBack?
    public var copyDescription: CFAllocatorCopyDescriptionCallBack?
    public init() { version = 0 }
    public init(version: CFIndex, info: UnsafeMutableRawPointer?, retain: CFAllocatorRetainCallBack?,
                release: CFAllocatorReleaseCallBack?, copyDescription: CFAllocatorCopyDescriptionCallBack?) {
        self.version = version; self.info = info; self.retain = retain; self.release = release
        self.copyDescription = copyDescription
    }
}

/// `typedef CALLBACK_API_C(void, FSEventStreamCallback)(ConstFSEventStreamRef streamRef, void * __nullable
/// clientCallBackInfo, size_t numEvents, void *eventPaths, const FSEventStreamEventFlags * _Nonnull
/// eventFlags, const FSEventStreamEventId * _Nonnull eventIds);` (inside CF_ASSUME_NONNULL)
public typealias FSEventStreamCallback = @convention(c) (ConstFSEventStreamRef, UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer,
                                                          UnsafePointer<FSEventStreamEventFlags>, UnsafePointer<FSEventStreamEventId>) -> Void

/// `extern FSEventStreamRef __nullable FSEventStreamCreate(CFAllocatorRef __nullable allocator,
/// FSEventStreamCallback callback, FSEventStreamContext * __nullable context, CFArrayRef pathsToWatch,
/// FSEventStreamEventId sinceWhen, CFTimeInterval latency, FSEventStreamCreateFlags flags);`
public func FSEventStreamCreate(_ allocator: CFAllocator?, _ callback: FSEventStreamCallback,
                                _ context: UnsafeMutablePointer<FSEventStreamContext>?, _ pathsToWatch: CFArray,
                                _ sinceWhen: FSEventStreamEventId, _ latency: CFTimeInterval,
                                _ flags: FSEventStreamCreateFlags) -> FSEventStreamRef? { fatalError("CoreServices stand-in: built, never run") }
/// `extern void FSEventStreamSetDispatchQueue(FSEventStreamRef streamRef, dispatch_queue_t __nullable q);`
public func FSEventStreamSetDispatchQueue(_ streamRef: FSEventStreamRef, _ q: DispatchQueue?) { fatalError("CoreServices stand-in: built, never run") }
/// `extern Boolean FSEventStreamStart(FSEventStreamRef streamRef);` (Boolean imports as Bool)
public func FSEventStreamStart(_ streamRef: FSEventStreamRef) -> Bool { fatalError("CoreServices stand-in: built, never run") }
/// `extern void FSEventStreamStop(FSEventStreamRef streamRef);`
public func FSEventStreamStop(_ streamRef: FSEventStreamRef) { fatalError("CoreServices stand-in: built, never run") }
/// `extern void FSEventStreamInvalidate(FSEventStreamRef streamRef);`
public func FSEventStreamInvalidate(_ streamRef: FSEventStreamRef) { fatalError("CoreServices stand-in: built, never run") }
/// `extern void FSEventStreamRelease(FSEventStreamRef streamRef);`
public func FSEventStreamRelease(_ streamRef: FSEventStreamRef) { fatalError("CoreServices stand-in: built, never run") }
