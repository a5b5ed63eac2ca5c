package cli

// VersionOf is versionOf, for the tests of the version's fallbacks.
var VersionOf = versionOf
