// Bounds the tests give the sandbox where the service's own would make a test depend on the
// machine's speed (CI shares its cores with other jobs).

/**
 * A webhook attempt's timeout for tests (the service's is 3 s): the in-process HTTPS inbox answers at
 * once on an idle machine, but a loaded one must not turn a delivery a test expects to succeed into
 * a timeout. useSandbox(), startHarness() and startSandboxProcess() give it unless told otherwise; a
 * test of the timeout itself passes its own.
 */
export const TEST_DELIVERY_TIMEOUT_MS = 60_000;
