filedesc://sample.arc 0.0.0.0 20050614070144 text/plain 80
1 0 sluice test archive
URL IP-address Archive-date Content-type Archive-length

http://www.example.com/ 192.0.2.10 20050614070159 text/html 290
HTTP/1.0 200 OK
Date: Tue, 14 Jun 2005 07:01:59 GMT
Server: Apache/1.3.33
Content-Type: text/html

<html><head><title>Example home</title></head>
<body><h1>Welcome</h1><p>This is the home page of an example site, archived in 2005.</p>
<p><a href="about.html">About us</a></p></body></html>

dns:www.example.com 192.0.2.1 20050614070144 text/dns 53
20050614070144
www.example.com.	3600	IN	A	192.0.2.10

http://www.example.com/about.html 192.0.2.10 20050614070203 text/html 147
HTTP/1.1 200 OK
Content-Type: text/html; charset=iso-8859-1
Connection: close

<html><body><h1>About</h1><p>We make examples.</p></body></html>
http://www.example.com/robots.txt 192.0.2.10 20050614070205 text/plain 64
HTTP/1.0 404 Not Found
Content-Type: text/plain

no robots here

