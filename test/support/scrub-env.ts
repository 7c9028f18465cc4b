// Loaded before every test file (vitest setupFiles): a proxy set in the environment of the test
// runner must not reach the tests, nor the hubctl, skopeo and registry processes they start.
// Tests that want a proxy pass it explicitly.
for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY']) {
  delete process.env[name];
  delete process.env[name.toLowerCase()];
}
