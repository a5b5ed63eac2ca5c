package cli

// VersionOf is versionOf, for the tests of the version's fallbacks.
var VersionOf = versionOf

// ErrorText is errorText, for the tests of the prefixes it strips.
var ErrorText = errorText
