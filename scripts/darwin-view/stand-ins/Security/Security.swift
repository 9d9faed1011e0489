// The Security module as the Darwin view sees it: only what SystemServerTrust uses, in the shape
// Swift imports it from Apple's headers. Security's own declarations cite
// apple-oss-distributions/Security at db15acbe (tag Security-61901.0.87.0.1), FILE:LINE, with
// their C declaration; inside CF_ASSUME_NONNULL (trust/headers/SecTrust.h:45,
// trust/headers/SecCertificate.h:56), so a pointer without `_Nullable` imports non-optional.
// CoreFoundation's types are Foundation's here, as in the CoreServices stand-in (toll-free
// bridged on Darwin, so `array as CFArray` and `data as CFData` compile there and here).
//
// Foundation's server-trust API (last part of this file). On a Mac, `URLProtectionSpace.serverTrust`,
// `URLCredential(trust:)` and `NSURLAuthenticationMethodServerTrust` come with Foundation and are
// typed with Security's SecTrust. swift-corelibs-foundation, which the view compiles Foundation
// against, marks the first and the last `unavailable` ("does not support methods of authentication
// that rely on the Darwin Security framework") and has no `init(trust:)`. They are declared here in
// the macOS SDK's shape, and Swift prefers them: a declaration of a module that imports another
// shadows the imported one's, and an unavailable one loses anyway. So the Mac code is compiled as it
// is, with no accessor or stand-in file in between; the cost is that the view finds them only in a
// file that imports Security (one that uses SecTrust does). Add a declaration only when the view
// needs it. Bodies exist only so test binaries link: the view is built, never run.
import Foundation
import FoundationNetworking

/// MacTypes.h `typedef SInt32 OSStatus;`
public typealias OSStatus = Int32
/// CFBase.h `typedef const struct __CFAllocator * CFAllocatorRef;` (a class on Darwin; only nil is passed).
public final class CFAllocator {}
/// CFArray.h `typedef const struct __CFArray * CFArrayRef;` (toll-free bridged to NSArray).
public typealias CFArray = NSArray
/// CFData.h `typedef const struct __CFData * CFDataRef;` (toll-free bridged to NSData).
public typealias CFData = NSData
/// CFError.h `typedef struct __CFError * CFErrorRef;` (toll-free bridged to NSError; CoreFoundation's
/// overlay makes it an Error, so `error as Error` reads its description).
public final class CFError: Error, @unchecked Sendable {}

/// base/SecBase.h:91 `SEC_SWIFT_SENDABLE typedef struct CF_BRIDGED_TYPE(id) __SecCertificate *SecCertificateRef;`
public final class SecCertificate: @unchecked Sendable {}
/// trust/headers/SecTrust.h:104 `typedef struct CF_BRIDGED_TYPE(id) __SecTrust *SecTrustRef;` (not Sendable)
public final class SecTrust {}

/// base/SecBase.h:324-326 `CF_ENUM(OSStatus) { errSecSuccess = 0, … };` (an anonymous enum of a
/// named type: its members import as constants of that type)
public var errSecSuccess: OSStatus { 0 }

/// trust/headers/SecCertificate.h:75-77 `__nullable SecCertificateRef SecCertificateCreateWithData(CFAllocatorRef
/// __nullable allocator, CFDataRef data);`
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    fatalError("Security stand-in: built, never run")
}

/// trust/headers/SecTrust.h:302-304 `OSStatus SecTrustSetAnchorCertificates(SecTrustRef trust, CFArrayRef
/// __nullable anchorCertificates);` (no warn_unused_result: a C function's result may be dropped)
@discardableResult
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray?) -> OSStatus {
    fatalError("Security stand-in: built, never run")
}

/// trust/headers/SecTrust.h:316-318 `OSStatus SecTrustSetAnchorCertificatesOnly(SecTrustRef trust, Boolean
/// anchorCertificatesOnly);` (Boolean imports as Bool)
@discardableResult
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus {
    fatalError("Security stand-in: built, never run")
}

/// trust/headers/SecTrust.h:425-427 `__attribute__((warn_unused_result)) bool SecTrustEvaluateWithError(SecTrustRef
/// trust, CFErrorRef _Nullable * _Nullable CF_RETURNS_RETAINED error);` (warn_unused_result: not discardable)
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    fatalError("Security stand-in: built, never run")
}

// Foundation's server-trust API, from the macOS SDK's Foundation.framework headers (not open
// source; the names are the headers', each with its Objective-C declaration).

/// NSURLProtectionSpace.h `FOUNDATION_EXPORT NSString * const NSURLAuthenticationMethodServerTrust;`
/// (imported as a String constant; shadows corelibs' unavailable one)
public let NSURLAuthenticationMethodServerTrust = "NSURLAuthenticationMethodServerTrust"

extension URLProtectionSpace {
    /// NSURLProtectionSpace.h `@property (nullable, readonly) SecTrustRef serverTrust;` (corelibs has
    /// an unavailable `serverTrust: Any?`, which this shadows)
    public var serverTrust: SecTrust? { fatalError("Security stand-in: built, never run") }
}

extension URLCredential {
    /// NSURLCredential.h `- (instancetype)initWithTrust:(SecTrustRef)trust;` (corelibs has none)
    public convenience init(trust: SecTrust) { fatalError("Security stand-in: built, never run") }
}
