// Throw-away certificates for one test cluster, made with openssl: a CA, the apiserver's serving
// certificate (SAN 127.0.0.1), an admin client certificate (O=system:masters, which RBAC treats as
// cluster admin) and the service-account signing key pair.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface Pki {
  dir: string
  caCert: string
  apiserverCert: string
  apiserverKey: string
  adminCert: string
  adminKey: string
  saKey: string
  saPub: string
}

/** openssl with `dir` as its working directory, quiet unless it fails. */
function opensslIn(dir: string): (...args: string[]) => void {
  return (...args) => {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] })
  }
}

/** A self-signed CA in `dir` (ca.key, ca.crt). */
export function makeCa(dir: string, subject: string): void {
  opensslIn(dir)(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '365',
    '-subj',
    subject,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign,digitalSignature'
  )
}

/** `<name>.key` and `<name>.crt` in `dir`, signed by its CA, with these x509v3 extensions. */
export function signCertificate(
  dir: string,
  name: string,
  subject: string,
  extensions: string
): void {
  const openssl = opensslIn(dir)
  writeFileSync(join(dir, `${name}.ext`), extensions)
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    subject
  )
  openssl(
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    `${name}.crt`,
    '-days',
    '365',
    '-extfile',
    `${name}.ext`
  )
}

export function makePki(dir: string): Pki {
  mkdirSync(dir, { recursive: true })
  const openssl = opensslIn(dir)
  makeCa(dir, '/CN=route-gate-test-ca')
  signCertificate(
    dir,
    'apiserver',
    '/CN=kube-apiserver',
    'subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc\n' +
      'extendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n'
  )
  signCertificate(
    dir,
    'admin',
    '/O=system:masters/CN=admin',
    'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n'
  )
  openssl('genrsa', '-out', 'sa.key', '2048')
  openssl('rsa', '-in', 'sa.key', '-pubout', '-out', 'sa.pub')
  const at = (file: string): string => join(dir, file)
  return {
    dir,
    caCert: at('ca.crt'),
    apiserverCert: at('apiserver.crt'),
    apiserverKey: at('apiserver.key'),
    adminCert: at('admin.crt'),
    adminKey: at('admin.key'),
    saKey: at('sa.key'),
    saPub: at('sa.pub')
  }
}

/** A kubeconfig with every certificate embedded, so it stays valid wherever it is copied. */
export function kubeconfigYaml(server: string, pki: Pki): string {
  const b64 = (file: string): string => readFileSync(file).toString('base64')
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: route-gate-test',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${b64(pki.caCert)}`,
    'users:',
    '- name: admin',
    '  user:',
    `    client-certificate-data: ${b64(pki.adminCert)}`,
    `    client-key-data: ${b64(pki.adminKey)}`,
    'contexts:',
    '- name: route-gate-test',
    '  context: {cluster: route-gate-test, user: admin}',
    'current-context: route-gate-test',
    ''
  ].join('\n')
}
